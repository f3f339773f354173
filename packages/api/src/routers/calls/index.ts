import {
  callLogOutput,
  createCall,
  createCallInput,
  envelope,
  findCalls,
  findCallsInput,
  getCall,
  getCallInput,
  listEnvelope,
} from '@crm/domain';
import { restRoute } from '../../rest-route.ts';
import { authedProcedure, declaredOutput, router } from '../../trpc.ts';

const tags = ['Calls'];

export const callsRouter = router({
  list: authedProcedure
    .meta(
      restRoute({
        scope: 'calls:read',
        openapi: {
          method: 'GET',
          path: '/records/{id}/calls',
          tags,
          summary: "List a record's call logs",
          description: 'Oldest logged first. Page with `page` or `cursor`. A record in Trash is not found.',
        },
        errors: [404],
      }),
    )
    .input(findCallsInput)
    .concat(declaredOutput(listEnvelope(callLogOutput)))
    .query(({ ctx, input }) => findCalls(ctx.db, ctx.actor, input)),

  get: authedProcedure
    .meta(
      restRoute({
        scope: 'calls:read',
        openapi: {
          method: 'GET',
          path: '/records/{id}/calls/{callId}',
          tags,
          summary: 'Get a call log of a record',
          description: 'A record in Trash is not found.',
        },
        errors: [404],
      }),
    )
    .input(getCallInput)
    .concat(declaredOutput(envelope(callLogOutput)))
    .query(async ({ ctx, input }) => ({ data: await getCall(ctx.db, ctx.actor, input) })),

  create: authedProcedure
    .meta(
      restRoute({
        scope: 'calls:write',
        openapi: {
          method: 'POST',
          path: '/records/{id}/calls',
          tags,
          summary: 'Log a call on a record',
          description:
            "Answers 201 with the call log. Defaults: direction OUTBOUND, outcome CONNECTED, calledAt now, phone the record's phone.",
        },
        successStatus: 201,
        location: '/records/{recordId}/calls/{id}',
        errors: [404],
      }),
    )
    .input(createCallInput)
    .concat(declaredOutput(envelope(callLogOutput)))
    .mutation(async ({ ctx, input }) => ({ data: await createCall(ctx.db, ctx.actor, input) })),
});

import {
  callLogOutput,
  createCall,
  createCallInput,
  envelope,
  findCalls,
  findCallsInput,
  listEnvelope,
} from '@crm/domain';
import { authedProcedure, router } from '../../trpc.ts';

const tags = ['Calls'];

export const callsRouter = router({
  list: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/records/{id}/calls',
        tags,
        summary: "List a record's call logs",
        description: 'Oldest logged first. Page with `page` or `cursor`. A record in Trash is not found.',
      },
      errors: [404],
    })
    .input(findCallsInput)
    .output(listEnvelope(callLogOutput))
    .query(({ ctx, input }) => findCalls(ctx.db, ctx.actor, input)),

  create: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/records/{id}/calls',
        tags,
        summary: 'Log a call on a record',
        description:
          "Answers 201 with the call log. Defaults: direction OUTBOUND, outcome CONNECTED, calledAt now, phone the record's phone.",
      },
      successStatus: 201,
      errors: [404],
    })
    .input(createCallInput)
    .output(envelope(callLogOutput))
    .mutation(async ({ ctx, input }) => ({ data: await createCall(ctx.db, ctx.actor, input) })),
});

import { envelope, getRun, rerun, runIdInput, runOutput } from '@crm/domain';
import { restRoute } from '../../rest-route.ts';
import { authedProcedure, declaredOutput, router } from '../../trpc.ts';

const tags = ['Workflows'];

export const runsRouter = router({
  get: authedProcedure
    .meta(
      restRoute({
        scope: 'workflows:read',
        openapi: {
          method: 'GET',
          path: '/runs/{id}',
          tags,
          summary: 'Get a workflow run',
          description: "One workflow run with its steps: each step's input, output, error and attempts.",
        },
        errors: [404],
      }),
    )
    .input(runIdInput)
    .concat(declaredOutput(envelope(runOutput)))
    .query(async ({ ctx, input }) => ({ data: await getRun(ctx.db, ctx.actor, input.id) })),

  rerun: authedProcedure
    .meta(
      restRoute({
        scope: 'workflows:write',
        openapi: {
          method: 'POST',
          path: '/runs/{id}/rerun',
          tags,
          summary: 'Run a finished run again',
          description:
            'Queues a new run (its `rerunOf` this one) with the same input and context record and the workflow’s current actions. 409 while this run is still QUEUED or RUNNING; 400 when the workflow is disabled.',
        },
        successStatus: 201,
        location: '/runs/{id}',
        errors: [404, 409],
      }),
    )
    .input(runIdInput)
    .concat(declaredOutput(envelope(runOutput)))
    .mutation(async ({ ctx, input }) => ({ data: await rerun(ctx.db, ctx.actor, input.id) })),
});

import {
  answerApproval,
  answerApprovalInput,
  cancelRun,
  envelope,
  getRun,
  rerun,
  runIdInput,
  runOutput,
} from '@crm/domain';
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
            'Queues a new run (its `rerunOf` this one) with the same input and context record and the workflow’s current actions. 409 while this run is still QUEUED, RUNNING or WAITING; 400 when the workflow is disabled.',
        },
        successStatus: 201,
        location: '/runs/{id}',
        errors: [404, 409],
      }),
    )
    .input(runIdInput)
    .concat(declaredOutput(envelope(runOutput)))
    .mutation(async ({ ctx, input }) => ({ data: await rerun(ctx.db, ctx.actor, input.id) })),

  cancel: authedProcedure
    .meta(
      restRoute({
        scope: 'workflows:write',
        openapi: {
          method: 'POST',
          path: '/runs/{id}/cancel',
          tags,
          summary: 'Cancel a run',
          description:
            'Ends a QUEUED, RUNNING or WAITING run as CANCELLED. A step in flight finishes and is recorded; nothing after it runs. 409 when the run has already ended.',
        },
        errors: [404, 409],
      }),
    )
    .input(runIdInput)
    .concat(declaredOutput(envelope(runOutput)))
    .mutation(async ({ ctx, input }) => ({ data: await cancelRun(ctx.db, ctx.actor, input.id) })),

  approve: authedProcedure
    .meta(
      restRoute({
        scope: 'workflows:write',
        openapi: {
          method: 'POST',
          path: '/runs/{id}/approve',
          tags,
          summary: 'Approve the step a run waits on',
          description:
            'Answers the APPROVAL step the run is WAITING on: its output becomes `{ approved: true, by, comment, at }`, its task is completed and the run goes on. Only the assignee, an owner or an admin (403 otherwise); 409 when the run is not waiting for an approval (answered, timed out, cancelled).',
        },
        errors: [403, 404, 409],
      }),
    )
    .input(answerApprovalInput)
    .concat(declaredOutput(envelope(runOutput)))
    .mutation(async ({ ctx, input }) => ({ data: await answerApproval(ctx.db, ctx.actor, input, true) })),

  reject: authedProcedure
    .meta(
      restRoute({
        scope: 'workflows:write',
        openapi: {
          method: 'POST',
          path: '/runs/{id}/reject',
          tags,
          summary: 'Reject the step a run waits on',
          description:
            'As approve, with `approved: false`: the run goes on, and a later BRANCH can read `steps.<name>.output.approved`. Only the assignee, an owner or an admin (403 otherwise); 409 when the run is not waiting for an approval.',
        },
        errors: [403, 404, 409],
      }),
    )
    .input(answerApprovalInput)
    .concat(declaredOutput(envelope(runOutput)))
    .mutation(async ({ ctx, input }) => ({ data: await answerApproval(ctx.db, ctx.actor, input, false) })),
});

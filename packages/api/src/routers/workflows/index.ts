import {
  createWorkflow,
  createWorkflowInput,
  deletedOutput,
  deleteWorkflow,
  envelope,
  findRuns,
  findRunsInput,
  findWorkflows,
  findWorkflowsInput,
  getWorkflow,
  listEnvelope,
  rotateWorkflowSecret,
  runOutput,
  savedWorkflowOutput,
  setWorkflowEnabled,
  testCodeInput,
  testCodeOutput,
  updateWorkflow,
  updateWorkflowInput,
  workflowIdInput,
  workflowOutput,
  workflowWarnings,
  workflowWithSecretOutput,
} from '@crm/domain';
import { runCode } from '@crm/sandbox';
import { restRoute } from '../../rest-route.ts';
import { authedProcedure, declaredOutput, router } from '../../trpc.ts';

const tags = ['Workflows'];
const one = envelope(workflowOutput);
const withSecret = envelope(workflowWithSecretOutput);

/**
 * A saved workflow with the warnings of the actions it now holds (docs/workflows.md,
 * "Warnings on save"): the status and `data` are what they would be without them. The
 * actions given are read in the order they were sent; an update without actions is warned
 * about the actions it kept.
 */
const saved = <T extends { actions: Record<string, unknown>[] }>(
  data: T,
  given: Record<string, unknown>[] | undefined,
) => ({
  data,
  meta: { warnings: workflowWarnings(given ?? data.actions) },
});

const WARNINGS_NOTE =
  ' The answer\'s `meta.warnings` lists action values that look like a `{{ }}` template another tool (n8n, Make) filled in before sending — "", "undefined", "null" where a value is expected — each `{ path, message }`; it is empty when nothing looks wrong, and the workflow is saved either way.';

export const workflowsRouter = router({
  list: authedProcedure
    .meta(
      restRoute({
        scope: 'workflows:read',
        openapi: {
          method: 'GET',
          path: '/workflows',
          tags,
          summary: 'List workflows (automations)',
          description: "The workspace's workflows, newest first. Page with `page` or `cursor`.",
        },
      }),
    )
    .input(findWorkflowsInput)
    .concat(declaredOutput(listEnvelope(workflowOutput)))
    .query(({ ctx, input }) => findWorkflows(ctx.db, ctx.actor, input, ctx.services)),

  get: authedProcedure
    .meta(
      restRoute({
        scope: 'workflows:read',
        openapi: {
          method: 'GET',
          path: '/workflows/{id}',
          tags,
          summary: 'Get a workflow',
          description:
            'The workflow with its trigger URL and actions as saved. Carries an ETag; If-None-Match answers 304.',
        },
        errors: [404],
      }),
    )
    .input(workflowIdInput)
    .concat(declaredOutput(one))
    .query(async ({ ctx, input }) => ({
      data: await getWorkflow(ctx.db, ctx.actor, input.id, ctx.services),
    })),

  create: authedProcedure
    .meta(
      restRoute({
        scope: 'workflows:write',
        openapi: {
          method: 'POST',
          path: '/workflows',
          tags,
          summary: 'Create a workflow',
          description:
            'A trigger (INCOMING_WEBHOOK, whose `trigger.url` is the address to POST to, or an event kind) and up to 20 actions, each `{ type, ...parameters }`, checked now: a bad parameter or template is a 400 naming it. With `requireSignature: true` the answer carries the `secret`, shown only here and on rotation.' +
            WARNINGS_NOTE,
        },
        successStatus: 201,
        location: '/workflows/{id}',
      }),
    )
    .input(createWorkflowInput)
    .concat(declaredOutput(savedWorkflowOutput))
    .mutation(async ({ ctx, input }) =>
      saved(await createWorkflow(ctx.db, ctx.actor, input, ctx.services), input.actions),
    ),

  update: authedProcedure
    .meta(
      restRoute({
        scope: 'workflows:write',
        openapi: {
          method: 'PATCH',
          path: '/workflows/{id}',
          tags,
          summary: 'Update a workflow',
          description:
            'Fields not given stay; `actions` replaces the list. Runs already queued keep the actions they started with. `secret` is set only when `requireSignature: true` created one.' +
            WARNINGS_NOTE,
        },
        errors: [404],
      }),
    )
    .input(updateWorkflowInput)
    .concat(declaredOutput(savedWorkflowOutput))
    .mutation(async ({ ctx, input }) =>
      saved(await updateWorkflow(ctx.db, ctx.actor, input, ctx.services), input.actions),
    ),

  enable: authedProcedure
    .meta(
      restRoute({
        scope: 'workflows:write',
        openapi: {
          method: 'POST',
          path: '/workflows/{id}/enable',
          tags,
          summary: 'Enable a workflow',
          description:
            'Enables the workflow: its trigger URL accepts calls again, or its event trigger starts runs again.',
        },
        errors: [404],
      }),
    )
    .input(workflowIdInput)
    .concat(declaredOutput(one))
    .mutation(async ({ ctx, input }) => ({
      data: await setWorkflowEnabled(ctx.db, ctx.actor, { id: input.id, enabled: true }, ctx.services),
    })),

  disable: authedProcedure
    .meta(
      restRoute({
        scope: 'workflows:write',
        openapi: {
          method: 'POST',
          path: '/workflows/{id}/disable',
          tags,
          summary: 'Disable a workflow',
          description: 'Its trigger URL answers 404 and its events start nothing until it is enabled again.',
        },
        errors: [404],
      }),
    )
    .input(workflowIdInput)
    .concat(declaredOutput(one))
    .mutation(async ({ ctx, input }) => ({
      data: await setWorkflowEnabled(ctx.db, ctx.actor, { id: input.id, enabled: false }, ctx.services),
    })),

  delete: authedProcedure
    .meta(
      restRoute({
        scope: 'workflows:delete',
        openapi: {
          method: 'DELETE',
          path: '/workflows/{id}',
          tags,
          summary: 'Delete a workflow',
          description: 'Permanent; its run history goes with it.',
        },
        errors: [404],
      }),
    )
    .input(workflowIdInput)
    .concat(declaredOutput(deletedOutput))
    .mutation(async ({ ctx, input }) => ({ data: await deleteWorkflow(ctx.db, ctx.actor, input.id) })),

  rotateSecret: authedProcedure
    .meta(
      restRoute({
        scope: 'workflows:write',
        openapi: {
          method: 'POST',
          path: '/workflows/{id}/rotate-secret',
          tags,
          summary: 'Create or rotate the signing secret of a workflow',
          description:
            'Returns the new secret once; from now on incoming calls must be signed. A previous secret is still accepted for 24 hours.',
        },
        errors: [404],
      }),
    )
    .input(workflowIdInput)
    .concat(declaredOutput(withSecret))
    .mutation(async ({ ctx, input }) => ({
      data: await rotateWorkflowSecret(ctx.db, ctx.actor, input.id, ctx.services),
    })),

  runs: authedProcedure
    .meta(
      restRoute({
        scope: 'workflows:read',
        openapi: {
          method: 'GET',
          path: '/workflows/{id}/runs',
          tags,
          summary: 'List the runs of a workflow',
          description:
            'Newest first, each with every step’s input, output or error and timings. Kept 30 days.',
        },
        errors: [404],
      }),
    )
    .input(findRunsInput)
    .concat(declaredOutput(listEnvelope(runOutput)))
    .query(({ ctx, input }) => findRuns(ctx.db, ctx.actor, input)),

  testCode: authedProcedure
    .meta(
      restRoute({
        scope: 'workflows:write',
        openapi: {
          method: 'POST',
          path: '/workflows/test-code',
          tags,
          summary: 'Run a CODE step’s source on a sample input',
          description:
            'Runs the source as a CODE step would — in the sandbox, with its limits (64 MiB, 1 s of CPU, 256 KiB of output) — on `input`, and answers what it returned or why it failed (`syntax`, `throw`, `timeout`, `memory`, `output`, with the line where known). Nothing is saved; a failure of the code is a 200 with `ok: false`.',
        },
      }),
    )
    .input(testCodeInput)
    .concat(declaredOutput(envelope(testCodeOutput)))
    .mutation(async ({ input }) => {
      const result = await runCode(input.source, input.input ?? {});
      return {
        data: result.ok
          ? { ok: true, output: result.output ?? null, error: null, durationMs: result.durationMs }
          : {
              ok: false,
              output: null,
              error: {
                kind: result.error.kind,
                message: result.error.message,
                line: result.error.line ?? null,
              },
              durationMs: result.durationMs,
            },
      };
    }),
});

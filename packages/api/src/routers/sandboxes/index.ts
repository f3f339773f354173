import {
  createdSandboxOutput,
  createSandbox,
  createSandboxInput,
  deletedOutput,
  deleteSandbox,
  envelope,
  findSandboxes,
  getSandbox,
  sandboxIdInput,
  sandboxOutput,
} from '@crm/domain';
import { z } from 'zod';
import { restRoute } from '../../rest-route.ts';
import { authedProcedure, declaredOutput, router } from '../../trpc.ts';

const tags = ['Sandboxes'];

/** Sandboxes of the workspace (docs/operations.md, "Sandboxes"). */
export const sandboxesRouter = router({
  list: authedProcedure
    .meta(
      restRoute({
        // Every member may open a sandbox of the workspace (they are members of it): listing
        // needs no scope.
        scope: 'none',
        openapi: {
          method: 'GET',
          path: '/sandboxes',
          tags,
          summary: 'List the sandboxes of the workspace',
          description: 'Oldest first; at most 10.',
        },
        resource: 'volatile',
      }),
    )
    .input(z.strictObject({}))
    .concat(declaredOutput(envelope(z.array(sandboxOutput))))
    .query(async ({ ctx }) => ({ data: await findSandboxes(ctx.db, ctx.actor) })),

  get: authedProcedure
    .meta(
      restRoute({
        scope: 'none',
        openapi: {
          method: 'GET',
          path: '/sandboxes/{id}',
          tags,
          summary: 'Get a sandbox of the workspace',
          description: 'Carries an ETag; If-None-Match answers 304.',
        },
        errors: [404],
      }),
    )
    .input(sandboxIdInput)
    .concat(declaredOutput(envelope(sandboxOutput)))
    .query(async ({ ctx, input }) => ({ data: await getSandbox(ctx.db, ctx.actor, input.id) })),

  create: authedProcedure
    .meta(
      restRoute({
        scope: 'config:write',
        openapi: {
          method: 'POST',
          path: '/sandboxes',
          tags,
          summary: 'Make a sandbox of the workspace',
          description:
            'A new workspace with the members of this one, the configuration in `copy` (as `POST /config/apply` applies it), up to `sampleRecords` of the newest records of the copied folders, and a key `crm_test_…` for you, returned only here. Its webhooks and HTTP_REQUEST steps send only to `allowUrls`; everything else is captured and shown, not sent. At most 10 sandboxes.',
        },
        successStatus: 201,
        location: '/sandboxes/{id}',
        errors: [],
      }),
    )
    .input(createSandboxInput)
    .concat(declaredOutput(envelope(createdSandboxOutput)))
    .mutation(async ({ ctx, input }) => ({
      data: await createSandbox(ctx.db, ctx.actor, input, ctx.services),
    })),

  delete: authedProcedure
    .meta(
      restRoute({
        scope: 'config:write',
        openapi: {
          method: 'DELETE',
          path: '/sandboxes/{id}',
          tags,
          summary: 'Delete a sandbox',
          description:
            'Its records, configuration, history, keys and sessions go with it; its keys stop working at once.',
        },
        errors: [404],
      }),
    )
    .input(sandboxIdInput)
    .concat(declaredOutput(deletedOutput))
    .mutation(async ({ ctx, input }) => ({ data: await deleteSandbox(ctx.db, ctx.actor, input.id) })),
});

import {
  applyConfig,
  applyOutput,
  configDocument,
  envelope,
  getConfig,
  planConfig,
  planInput,
  planOutput,
} from '@crm/domain';
import { z } from 'zod';
import { restRoute } from '../../rest-route.ts';
import { authedProcedure, declaredOutput, router } from '../../trpc.ts';

const tags = ['Configuration'];

/**
 * Configuration as code (docs/operations.md, "Configuration as code"). `apply` is a word tRPC
 * keeps for itself, hence `applyDocument` over tRPC; REST calls it `POST /config/apply`.
 */
export const configRouter = router({
  get: authedProcedure
    .meta(
      restRoute({
        scope: 'config:read',
        openapi: {
          method: 'GET',
          path: '/config',
          tags,
          summary: 'Export the workspace’s configuration',
          description:
            'Folders and fields, pipelines and stages, workflows, webhook subscriptions (never secrets; header values masked) and your saved views, as one document keyed by names (its JSON Schema: `/api/v1/config.schema.json`). The same configuration exports the same document in any workspace.',
        },
        resource: 'volatile',
      }),
    )
    .input(z.strictObject({}))
    .concat(declaredOutput(envelope(configDocument)))
    .query(async ({ ctx }) => ({ data: await getConfig(ctx.db, ctx.actor) })),

  plan: authedProcedure
    .meta(
      restRoute({
        scope: 'config:read',
        openapi: {
          method: 'POST',
          path: '/config/plan',
          tags,
          summary: 'Show what applying a configuration would change',
          description:
            'Every change `POST /config/apply` would make, in its order, with what removals do to data (values of a removed field, a relation’s links, a stage’s deals); what the workspace has and the document lacks, under `left`. Writes nothing. A document with problems is a 400 naming each.',
        },
        errors: [],
      }),
    )
    .input(planInput)
    .concat(declaredOutput(envelope(planOutput)))
    .mutation(async ({ ctx, input }) => ({ data: await planConfig(ctx.db, ctx.actor, input, ctx.services) })),

  applyDocument: authedProcedure
    .meta(
      restRoute({
        scope: 'config:write',
        openapi: {
          method: 'POST',
          path: '/config/apply',
          tags,
          summary: 'Apply a configuration',
          description:
            'Makes the changes of the plan in one transaction: all or none. Applying the same document again changes nothing. Removals only with `prune: true`. The secrets of subscriptions and signed workflows it makes are in the answer, once. Audited as `config.applied`.',
        },
        errors: [],
      }),
    )
    .input(planInput)
    .concat(declaredOutput(envelope(applyOutput)))
    .mutation(async ({ ctx, input }) => ({
      data: await applyConfig(ctx.db, ctx.actor, input, ctx.services),
    })),
});

import {
  createDeal,
  createDealInput,
  dealIdInput,
  dealOutput,
  dealRecordLinks,
  deleteDeal,
  deletedOutput,
  envelope,
  filteredListEnvelope,
  findDeals,
  findDealsInput,
  getDeal,
  updateDeal,
  updateDealInput,
} from '@crm/domain';
import { restRoute } from '../../rest-route.ts';
import { authedProcedure, declaredOutput, router } from '../../trpc.ts';
import { historyProcedures } from '../history.ts';
import { participantProcedures } from '../participants.ts';
import { dealsBatchProcedures } from './batch.ts';

const tags = ['Deals'];
const one = envelope(dealOutput);

export const dealsRouter = router({
  // First, so that /deals/batch is not taken for /deals/{id} (see batch.ts).
  ...dealsBatchProcedures,
  ...historyProcedures('deal', tags),
  ...participantProcedures('deal', dealRecordLinks, tags),
  list: authedProcedure
    .meta(
      restRoute({
        scope: 'deals:read',
        openapi: {
          method: 'GET',
          path: '/deals',
          tags,
          summary: 'List the deals of a pipeline',
          description:
            '`pipelineId` is required (400 without, 404 when unknown). Filter by `stageId`, `recordId`, and any deal field with `filter[<field>]` / `filter[<field>][<op>]` (ANDed). Newest first, or as `sort` says (`amount`, `-closeDate`, `data.<key>` …); `count=true` adds `meta.total`.',
        },
        errors: [404],
      }),
    )
    .input(findDealsInput)
    .concat(declaredOutput(filteredListEnvelope(dealOutput)))
    .query(({ ctx, input }) => findDeals(ctx.db, ctx.actor, input)),

  get: authedProcedure
    .meta(
      restRoute({
        scope: 'deals:read',
        openapi: {
          method: 'GET',
          path: '/deals/{id}',
          tags,
          summary: 'Get a deal',
          description:
            'The deal with its stage, amount, currency, close date, linked record and data. Carries an ETag; If-None-Match answers 304.',
        },
        errors: [404],
      }),
    )
    .input(dealIdInput)
    .concat(declaredOutput(one))
    .query(async ({ ctx, input }) => ({ data: await getDeal(ctx.db, ctx.actor, input.id) })),

  create: authedProcedure
    .meta(
      restRoute({
        scope: 'deals:write',
        openapi: {
          method: 'POST',
          path: '/deals',
          tags,
          summary: 'Create a deal',
          description: 'Without `stageId` the deal starts in the pipeline’s first stage.',
        },
        successStatus: 201,
        location: '/deals/{id}',
      }),
    )
    .input(createDealInput)
    .concat(declaredOutput(one))
    .mutation(async ({ ctx, input }) => ({ data: await createDeal(ctx.db, ctx.actor, input) })),

  update: authedProcedure
    .meta(
      restRoute({
        scope: 'deals:write',
        openapi: {
          method: 'PATCH',
          path: '/deals/{id}',
          tags,
          summary: 'Update a deal or move it to another stage',
          description: 'Fields not given stay; `data` merges. A stage change emits `deal.stage_changed`.',
        },
        errors: [404],
      }),
    )
    .input(updateDealInput)
    .concat(declaredOutput(one))
    .mutation(async ({ ctx, input }) => ({ data: await updateDeal(ctx.db, ctx.actor, input) })),

  delete: authedProcedure
    .meta(
      restRoute({
        scope: 'deals:delete',
        openapi: {
          method: 'DELETE',
          path: '/deals/{id}',
          tags,
          summary: 'Delete a deal permanently',
          description:
            'Deletes the deal for good (deals have no Trash) and answers `{ id, deleted: true }`. If-Match makes it conditional.',
        },
        errors: [404],
      }),
    )
    .input(dealIdInput)
    .concat(declaredOutput(deletedOutput))
    .mutation(async ({ ctx, input }) => ({ data: await deleteDeal(ctx.db, ctx.actor, input.id) })),
});

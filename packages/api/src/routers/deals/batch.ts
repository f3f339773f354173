import {
  batchEnvelope,
  createDeals,
  createDealsInput,
  dealOutput,
  deleteDeals,
  deleteDealsInput,
  deletedItemOutput,
  updateDeals,
  updateDealsInput,
} from '@crm/domain';
import { batchAnswer } from '../../batch-answer.ts';
import { restRoute } from '../../rest-route.ts';
import { authedProcedure, declaredOutput } from '../../trpc.ts';

const tags = ['Deals'];
const answer = batchEnvelope(dealOutput).meta({ id: 'DealBatchAnswer' });
const answered =
  'Answers 200 with one entry per item, in item order: `{ index, status, data }` or `{ index, status, error }`, `status` being what the single call would have answered; `meta` counts both. Items are independent: one that fails writes nothing, the others are written. At most 100 items; counts as one request against the rate limit.';

/**
 * The batch writes of deals (docs/api.md, "Batch writes"), spread into the deals router.
 * Their place there only orders the OpenAPI document's operations: the REST route table
 * takes `/deals/batch` before `/deals/{id}` whatever the order (rest-routes.ts).
 */
export const dealsBatchProcedures = {
  batchCreate: authedProcedure
    .meta(
      restRoute({
        scope: 'deals:write',
        openapi: {
          method: 'POST',
          path: '/deals/batch',
          tags,
          summary: 'Create deals in a batch',
          description: `Each item is the body of \`POST /deals\` and is created as that call would create it (201). ${answered}`,
        },
      }),
    )
    .input(createDealsInput)
    .concat(declaredOutput(answer))
    .mutation(async ({ ctx, input }) =>
      batchAnswer(await createDeals(ctx.db, ctx.actor, input), ctx.requestId),
    ),

  batchUpdate: authedProcedure
    .meta(
      restRoute({
        scope: 'deals:write',
        openapi: {
          method: 'PATCH',
          path: '/deals/batch',
          tags,
          summary: 'Update deals in a batch',
          description: `Each item is \`{ id, … }\` with the body of \`PATCH /deals/{id}\`, applied in order as that call would apply it (200; an unknown id: 404). ${answered}`,
        },
      }),
    )
    .input(updateDealsInput)
    .concat(declaredOutput(answer))
    .mutation(async ({ ctx, input }) =>
      batchAnswer(await updateDeals(ctx.db, ctx.actor, input), ctx.requestId),
    ),

  batchDelete: authedProcedure
    .meta(
      restRoute({
        scope: 'deals:delete',
        openapi: {
          method: 'POST',
          path: '/deals/batch/delete',
          tags,
          summary: 'Delete deals permanently in a batch',
          description: `Each id is deleted as \`DELETE /deals/{id}\` would delete it (200 \`{ id, deleted: true }\`; an unknown id: 404). ${answered}`,
        },
      }),
    )
    .input(deleteDealsInput)
    .concat(declaredOutput(batchEnvelope(deletedItemOutput).meta({ id: 'DealDeleteBatchAnswer' })))
    .mutation(async ({ ctx, input }) =>
      batchAnswer(await deleteDeals(ctx.db, ctx.actor, input), ctx.requestId),
    ),
};

import {
  createDeals,
  createDealsInput,
  dealOutput,
  deleteDeals,
  deleteDealsInput,
  deletedItemOutput,
  updateDeals,
  updateDealsInput,
} from '@crm/domain';
import { batchAnswerSchema, batchProcedure } from '../../batch-router.ts';

const tags = ['Deals'];
const answer = batchAnswerSchema(dealOutput, 'DealBatchAnswer');

/**
 * The batch writes of deals (docs/api.md, "Batch writes"), spread into the deals router.
 * Their place there only orders the OpenAPI document's operations: the REST route table
 * takes `/deals/batch` before `/deals/{id}` whatever the order (rest-routes.ts).
 */
export const dealsBatchProcedures = {
  batchCreate: batchProcedure({
    scope: 'deals:write',
    method: 'POST',
    path: '/deals/batch',
    tags,
    summary: 'Create deals in a batch',
    description: 'Each item is the body of `POST /deals` and is created as that call would create it (201).',
    input: createDealsInput,
    answer,
    action: createDeals,
  }),

  batchUpdate: batchProcedure({
    scope: 'deals:write',
    method: 'PATCH',
    path: '/deals/batch',
    tags,
    summary: 'Update deals in a batch',
    description:
      'Each item is `{ id, … }` with the body of `PATCH /deals/{id}`, applied in order as that call would apply it (200; an unknown id: 404).',
    input: updateDealsInput,
    answer,
    action: updateDeals,
  }),

  batchDelete: batchProcedure({
    scope: 'deals:delete',
    method: 'POST',
    path: '/deals/batch/delete',
    tags,
    summary: 'Delete deals permanently in a batch',
    description:
      'Each id is deleted as `DELETE /deals/{id}` would delete it (200 `{ id, deleted: true }`; an unknown id: 404).',
    input: deleteDealsInput,
    answer: batchAnswerSchema(deletedItemOutput, 'DealDeleteBatchAnswer'),
    action: deleteDeals,
  }),
};

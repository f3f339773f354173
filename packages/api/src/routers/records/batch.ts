import {
  batchEnvelope,
  createRecords,
  createRecordsInput,
  recordOutput,
  trashRecords,
  trashRecordsInput,
  updateRecords,
  updateRecordsInput,
} from '@crm/domain';
import { batchAnswer } from '../../batch-answer.ts';
import { restRoute } from '../../rest-route.ts';
import { authedProcedure, declaredOutput } from '../../trpc.ts';

const tags = ['Records'];
const answer = batchEnvelope(recordOutput).meta({ id: 'RecordBatchAnswer' });
const answered =
  'Answers 200 with one entry per item, in item order: `{ index, status, data }` or `{ index, status, error }`, `status` being what the single call would have answered; `meta` counts both. Items are independent: one that fails writes nothing, the others are written. At most 100 items; counts as one request against the rate limit.';

/**
 * The batch writes of records (docs/api.md, "Batch writes"), spread into the records router.
 * Their place there only orders the OpenAPI document's operations: the REST route table
 * takes `/records/batch` before `/records/{id}` whatever the order (rest-routes.ts).
 */
export const recordsBatchProcedures = {
  batchCreate: authedProcedure
    .meta(
      restRoute({
        scope: 'records:write',
        openapi: {
          method: 'POST',
          path: '/records/batch',
          tags,
          summary: 'Create records in a batch (or upsert by email)',
          description: `Each item is the body of \`POST /records\` and is created as that call would create it (201). With \`?upsert=email\` each item updates the live record of its folder with the same email instead (200), items applied in order. ${answered}`,
        },
        queryParams: ['upsert'],
      }),
    )
    .input(createRecordsInput)
    .concat(declaredOutput(answer))
    .mutation(async ({ ctx, input }) =>
      batchAnswer(await createRecords(ctx.db, ctx.actor, input), ctx.requestId),
    ),

  batchUpdate: authedProcedure
    .meta(
      restRoute({
        scope: 'records:write',
        openapi: {
          method: 'PATCH',
          path: '/records/batch',
          tags,
          summary: 'Update records in a batch',
          description: `Each item is \`{ id, … }\` with the body of \`PATCH /records/{id}\`, applied in order as that call would apply it (200; an unknown or trashed id: 404). ${answered}`,
        },
      }),
    )
    .input(updateRecordsInput)
    .concat(declaredOutput(answer))
    .mutation(async ({ ctx, input }) =>
      batchAnswer(await updateRecords(ctx.db, ctx.actor, input), ctx.requestId),
    ),

  batchTrash: authedProcedure
    .meta(
      restRoute({
        scope: 'records:delete',
        openapi: {
          method: 'POST',
          path: '/records/batch/trash',
          tags,
          summary: 'Move records to Trash in a batch',
          description: `Each id is moved to Trash as \`DELETE /records/{id}\` would move it (200 with the record; not found or already in Trash: 404). ${answered}`,
        },
      }),
    )
    .input(trashRecordsInput)
    .concat(declaredOutput(answer))
    .mutation(async ({ ctx, input }) =>
      batchAnswer(await trashRecords(ctx.db, ctx.actor, input), ctx.requestId),
    ),
};

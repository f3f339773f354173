import {
  createRecords,
  createRecordsInput,
  noteRecordsCreated,
  recordOutput,
  trashRecords,
  trashRecordsInput,
  updateRecords,
  updateRecordsInput,
} from '@crm/domain';
import { batchAnswerSchema, batchProcedure } from '../../batch-router.ts';

const tags = ['Records'];
const answer = batchAnswerSchema(recordOutput, 'RecordBatchAnswer');

/**
 * The batch writes of records (docs/api.md, "Batch writes"), spread into the records router.
 * Their place there only orders the OpenAPI document's operations: the REST route table
 * takes `/records/batch` before `/records/{id}` whatever the order (rest-routes.ts).
 */
export const recordsBatchProcedures = {
  batchCreate: batchProcedure({
    scope: 'records:write',
    method: 'POST',
    path: '/records/batch',
    tags,
    summary: 'Create records in a batch (or upsert by email)',
    description:
      'Each item is the body of `POST /records` and is created as that call would create it (201). With `?upsert=email` each item updates the live record of its folder with the same email instead (200), items applied in order.',
    queryParams: ['upsert'],
    input: createRecordsInput,
    answer,
    action: async (db, actor, input) => {
      const outcomes = await createRecords(db, actor, input);
      // The planner's statistics kept abreast of a workspace filled a batch at a time.
      void noteRecordsCreated(db, actor.workspaceId, outcomes.filter((o) => o.ok && o.created).length);
      return outcomes;
    },
  }),

  batchUpdate: batchProcedure({
    scope: 'records:write',
    method: 'PATCH',
    path: '/records/batch',
    tags,
    summary: 'Update records in a batch',
    description:
      'Each item is `{ id, … }` with the body of `PATCH /records/{id}`, applied in order as that call would apply it (200; an unknown or trashed id: 404).',
    input: updateRecordsInput,
    answer,
    action: updateRecords,
  }),

  batchTrash: batchProcedure({
    scope: 'records:delete',
    method: 'POST',
    path: '/records/batch/trash',
    tags,
    summary: 'Move records to Trash in a batch',
    description:
      'Each id is moved to Trash as `DELETE /records/{id}` would move it (200 with the record; not found or already in Trash: 404).',
    input: trashRecordsInput,
    answer,
    action: trashRecords,
  }),
};

import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { z } from 'zod';
import { type RecordOutput, updateRecordInput } from '../record-model/schemas.ts';
import type { Actor } from '../shared/actor.ts';
import { type BatchOutcome, batchList, eachItem, idsOf, lockRowsInOrder } from '../shared/batch.ts';
import { updateRecord } from './update-record.ts';

export const updateRecordsInput = z.strictObject({
  items: batchList(updateRecordInput).meta({
    description: 'Up to 100 changes, each `{ id, … }` with the body of `PATCH /records/{id}`.',
  }),
});

/**
 * `PATCH /records/batch`: each item applied as `updateRecord` applies it (200), in item
 * order and one transaction; an unknown, trashed or other workspace's id is that item's 404.
 */
export async function updateRecords(
  db: Database,
  actor: Actor,
  input: z.output<typeof updateRecordsInput>,
): Promise<BatchOutcome<RecordOutput>[]> {
  return db.transaction(async (tx) => {
    const ids = idsOf(input.items, (item) => item.id);
    await lockRowsInOrder(tx, schema.records, 'record', actor.workspaceId, ids);
    return eachItem(tx, input.items, async (itemDb, item) => ({
      created: false,
      data: await updateRecord(itemDb, actor, item),
    }));
  });
}

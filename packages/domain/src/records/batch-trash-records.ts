import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { z } from 'zod';
import type { Actor } from '../shared/actor.ts';
import { type BatchOutcome, batchList, eachItem, idsOf, lockRowsInOrder } from '../shared/batch.ts';
import { idParam } from '../shared/schemas.ts';
import type { RecordOutput } from './schemas.ts';
import { trashRecord } from './trash-record.ts';

export const trashRecordsInput = z.strictObject({
  ids: batchList(idParam('Record id')).meta({ description: 'Up to 100 ids of records to move to Trash.' }),
});

/**
 * `POST /records/batch/trash`: each record moved to Trash as `DELETE /records/{id}` moves it
 * (200 with the record), in one transaction; an id not found (already in Trash included) is
 * that item's 404.
 */
export async function trashRecords(
  db: Database,
  actor: Actor,
  input: z.output<typeof trashRecordsInput>,
): Promise<BatchOutcome<RecordOutput>[]> {
  return db.transaction(async (tx) => {
    await lockRowsInOrder(
      tx,
      schema.records,
      'record',
      actor.workspaceId,
      idsOf(input.ids, (id) => id),
    );
    return eachItem(tx, input.ids, async (itemDb, id) => ({
      status: 200,
      data: await trashRecord(itemDb, actor, id),
    }));
  });
}

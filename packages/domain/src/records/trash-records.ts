import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { z } from 'zod';
import type { RecordOutput } from '../record-model/schemas.ts';
import type { Actor } from '../shared/actor.ts';
import { type BatchOutcome, batchList, eachIdLocked } from '../shared/batch.ts';
import { idParam } from '../shared/schemas.ts';
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
  return eachIdLocked(
    db,
    actor.workspaceId,
    { table: schema.records, kind: 'record' },
    input.ids,
    (itemDb, id) => trashRecord(itemDb, actor, id),
  );
}

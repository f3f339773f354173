import type { Database } from '@crm/db';
import { z } from 'zod';
import type { Actor } from '../shared/actor.ts';
import { batchList } from '../shared/batch.ts';
import { batchUnlinkItem } from './schemas.ts';
import { unlinkRecords } from './unlink-records.ts';

export const unlinkRecordsInput = z.strictObject({
  items: batchList(batchUnlinkItem).meta({
    description:
      'Up to 100 links `{ from, field, to }`, each removed as `DELETE /records/{from}/links/{field}/{to}` would.',
  }),
});

/** `POST /records/links/batch/delete`. */
export function unlinkRecordsInBatch(db: Database, actor: Actor, input: z.output<typeof unlinkRecordsInput>) {
  return unlinkRecords(db, actor, input.items);
}

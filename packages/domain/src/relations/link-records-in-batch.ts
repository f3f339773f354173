import type { Database } from '@crm/db';
import { z } from 'zod';
import type { Actor } from '../shared/actor.ts';
import { batchList } from '../shared/batch.ts';
import { linkRecords } from './link-records.ts';
import { batchLinkItem } from './schemas.ts';

export const linkRecordsInput = z.strictObject({
  items: batchList(batchLinkItem).meta({
    description:
      'Up to 100 links `{ from, field, to, label? }`, each made as `POST /records/{from}/links` would.',
  }),
});

/** `POST /records/links/batch` (docs/api.md, "Relations"): every item applied in order, in one transaction. */
export function linkRecordsInBatch(db: Database, actor: Actor, input: z.output<typeof linkRecordsInput>) {
  return linkRecords(db, actor, input.items);
}

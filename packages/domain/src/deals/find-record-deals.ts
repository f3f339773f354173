import type { Database } from '@crm/db';
import type { z } from 'zod';
import { loadRecord } from '../records/load-record.ts';
import { linkedToRecord, withLinkTo } from '../relations/participants.ts';
import type { Actor } from '../shared/actor.ts';
import { listDeals } from './list-deals.ts';
import type { findRecordDealsInput } from './schemas.ts';

/**
 * `GET /records/{id}/deals`: the deals linked to a live record (its primary record or one of
 * its links, docs/api.md, "Relations"), as the deal list pages them; `pipelineId` optional.
 */
export async function findRecordDeals(
  db: Database,
  actor: Actor,
  input: z.infer<typeof findRecordDealsInput>,
) {
  const { id, ...rest } = input;
  await loadRecord(db, actor, id);
  const page = await listDeals(db, actor, rest, {
    scope: linkedToRecord('deal', actor, id),
    print: ['linked', id],
  });
  return withLinkTo(db, actor, 'deal', id, page);
}

import type { Database } from '@crm/db';
import type { z } from 'zod';
import type { Actor } from '../shared/actor.ts';
import { missing } from '../shared/missing.ts';
import { linkRecords } from './link-records.ts';
import type { linkRecordInput } from './schemas.ts';

/**
 * `POST /records/{id}/links` (docs/api.md, "Relations"): links the record to another through
 * one of its RELATION fields; 201 with the new link, or 200 with the link that was there
 * (its label changed when another is given).
 */
export async function linkRecord(db: Database, actor: Actor, input: z.output<typeof linkRecordInput>) {
  const { id, ...item } = input;
  const [outcome] = await linkRecords(db, actor, [{ ok: true, input: { from: id, ...item } }]);
  if (!outcome) missing('outcome, the first of what the call returned');
  if (!outcome.ok) throw outcome.error;
  return outcome;
}

import type { Database } from '@crm/db';
import type { z } from 'zod';
import type { Actor } from '../shared/actor.ts';
import { missing } from '../shared/missing.ts';
import type { linkPathInput } from './schemas.ts';
import { unlinkRecords } from './unlink-records.ts';

/** `DELETE /records/{id}/links/{field}/{to}`: 404 when there is no such link between live records. */
export async function unlinkRecord(db: Database, actor: Actor, input: z.output<typeof linkPathInput>) {
  const [outcome] = await unlinkRecords(
    db,
    actor,
    [{ ok: true, input: { from: input.id, field: input.field, to: input.to } }],
    'path',
  );
  if (!outcome) missing('outcome, the first of what the call returned');
  if (!outcome.ok) throw outcome.error;
  return outcome.data;
}

import type { Database } from '@crm/db';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Actor } from '../shared/actor.ts';
import { DomainError } from '../shared/errors.ts';
import { missing } from '../shared/missing.ts';
import { linkNotFound, linkOutputOf, prepareItems } from './link-items.ts';
import type { linkPathInput } from './schemas.ts';

/** `GET /records/{id}/links/{field}/{to}`: the link between two live records, or 404. */
export async function getLink(db: Database, actor: Actor, input: z.output<typeof linkPathInput>) {
  const {
    prepared: [prepared],
  } = await prepareItems(db, actor, [{ from: input.id, field: input.field, to: input.to }], 'path', true);
  if (prepared instanceof DomainError) throw prepared;
  const { relation, fromId, toId, field } = prepared ?? missing('prepared');
  const { rows } = await db.execute<{ label: string | null; created_at: string }>(sql`
    select label, created_at from record_links
     where workspace_id = ${actor.workspaceId} and relation_id = ${relation.id}
       and from_id = ${fromId} and to_id = ${toId}`);
  const row = rows[0];
  if (!row) throw linkNotFound(input.id, input.field, input.to);
  return linkOutputOf(field, input.id, input.to, {
    label: row.label,
    createdAt: new Date(row.created_at).toISOString(),
  });
}

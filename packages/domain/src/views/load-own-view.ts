import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq } from 'drizzle-orm';
import type { Actor } from '../shared/actor.ts';
import { notFound } from '../shared/errors.ts';
import { isId } from '../shared/ids.ts';
import type { SavedViewRow } from './serialize.ts';

const v = schema.savedViews;

/** The caller's own view: another user's, another workspace's or a malformed id is not found. */
export async function loadOwnView(
  db: Executor,
  actor: Actor,
  id: string,
  lock: boolean,
): Promise<SavedViewRow> {
  if (!isId('view', id)) throw notFound('Saved view', id);
  const query = db
    .select()
    .from(v)
    .where(and(eq(v.workspaceId, actor.workspaceId), eq(v.id, id), eq(v.userId, actor.userId)));
  const [row] = await (lock ? query.for('update') : query);
  if (!row) throw notFound('Saved view', id);
  return row;
}

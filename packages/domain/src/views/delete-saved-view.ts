import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq } from 'drizzle-orm';
import type { Actor } from '../shared/actor.ts';
import { loadOwnView } from './load-own-view.ts';

const v = schema.savedViews;

export async function deleteSavedView(
  db: Executor,
  actor: Actor,
  id: string,
): Promise<{ id: string; deleted: true }> {
  const current = await loadOwnView(db, actor, id, false);
  await db.delete(v).where(and(eq(v.workspaceId, actor.workspaceId), eq(v.id, current.id)));
  return { id: current.id, deleted: true };
}

import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import { eq } from 'drizzle-orm';
import type { Actor } from '../shared/actor.ts';
import { loadInWorkspace } from '../shared/load-in-workspace.ts';
import type { SavedViewRow } from './serialize.ts';

const v = schema.savedViews;

/** The caller's own view: another user's, another workspace's or a malformed id is not found. */
export async function loadOwnView(
  db: Executor,
  actor: Actor,
  id: string,
  lock: boolean,
): Promise<SavedViewRow> {
  return loadInWorkspace(db, v, actor.workspaceId, id, {
    kind: 'view',
    name: 'Saved view',
    where: eq(v.userId, actor.userId),
    ...(lock ? { lock: 'update' } : {}),
  });
}

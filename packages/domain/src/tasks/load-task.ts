import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq } from 'drizzle-orm';
import type { Actor } from '../shared/actor.ts';
import { notFound } from '../shared/errors.ts';
import { isId } from '../shared/ids.ts';
import type { TaskRow } from './serialize.ts';

/** Loads a task of the caller's workspace or throws NOT_FOUND (a malformed or foreign id included). */
export async function loadTask(
  tx: Executor,
  actor: Actor,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<TaskRow> {
  if (!isId('task', id)) throw notFound('Task', id);
  const t = schema.tasks;
  const query = tx
    .select()
    .from(t)
    .where(and(eq(t.workspaceId, actor.workspaceId), eq(t.id, id)));
  const rows = await (options.forUpdate ? query.for('update') : query);
  const row = rows[0];
  if (!row) throw notFound('Task', id);
  return row;
}

import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq, type SQL } from 'drizzle-orm';
import { loadRecord } from '../records/load-record.ts';
import type { Actor } from '../shared/actor.ts';
import { afterCursor, keysetOrder } from '../shared/keyset.ts';
import { type PageMeta, resolvePaging, toPage } from '../shared/paging.ts';
import { afterDueKey, dueOrder, resolveDuePaging, toDuePage } from './due-order.ts';
import { loadTask } from './load-task.ts';
import type { FindTasksInput, TaskOutput } from './schemas.ts';
import { serializeTask } from './serialize.ts';

const t = schema.tasks;

/**
 * A page of tasks: newest first, or with `sort=dueAt` soonest due first (no due time last).
 * A `recordId` filter must name a live record of the workspace (404 otherwise, like the
 * records' `folderId`); `assigneeId` only filters, so tasks of a former member stay findable.
 */
export async function findTasks(
  db: Database,
  actor: Actor,
  input: FindTasksInput,
): Promise<{ data: TaskOutput[]; meta: PageMeta }> {
  if (input.sort === 'dueAt') {
    const paging = resolveDuePaging(input);
    const where = await filters(db, actor, input);
    const after = paging.kind === 'cursor' ? afterDueKey(paging.after) : undefined;
    return toDuePage(await fetchRows(db, and(where, after), dueOrder, paging), paging, serializeTask);
  }
  const paging = resolvePaging(input);
  const where = and(await filters(db, actor, input), afterCursor(t.createdAt, t.id, paging, 'desc'));
  const rows = await fetchRows(db, where, keysetOrder(t.createdAt, t.id, 'desc'), paging);
  return toPage(rows, paging, serializeTask);
}

export async function getTask(db: Database, actor: Actor, id: string): Promise<TaskOutput> {
  return serializeTask(await loadTask(db, actor, id));
}

async function filters(db: Database, actor: Actor, input: FindTasksInput): Promise<SQL | undefined> {
  const conditions: (SQL | undefined)[] = [eq(t.workspaceId, actor.workspaceId)];
  if (input.recordId !== undefined) {
    await loadRecord(db, actor, input.recordId);
    conditions.push(eq(t.recordId, input.recordId));
  }
  if (input.status !== undefined) conditions.push(eq(t.status, input.status));
  if (input.assigneeId !== undefined) conditions.push(eq(t.assigneeId, input.assigneeId));
  return and(...conditions);
}

/** One page plus one row, which only tells whether there is more. */
function fetchRows(
  db: Database,
  where: SQL | undefined,
  order: SQL[],
  paging: { pageSize: number; offset?: number },
) {
  return db
    .select()
    .from(t)
    .where(where)
    .orderBy(...order)
    .limit(paging.pageSize + 1)
    .offset(paging.offset ?? 0);
}

import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { taskPriorities, taskRecurrences, taskStatuses, taskTypes } from '@crm/db/schema';
import { and, eq, type SQL } from 'drizzle-orm';
import { loadRecord } from '../records/load-record.ts';
import type { Actor } from '../shared/actor.ts';
import { columnField, type ListField } from '../shared/list-fields.ts';
import { canonicalTree, treeFromParam } from '../shared/list-filter.ts';
import {
  addCount,
  checkFilterFields,
  countModeOf,
  type FieldTable,
  findListPage,
  type ListMeta,
} from '../shared/list-query.ts';
import { fingerprint, parseSort } from '../shared/list-sort.ts';
import { afterDueKey, dueOrder, resolveDuePaging, toDuePage } from './due-order.ts';
import type { FindTasksInput, TaskOutput } from './schemas.ts';
import { serializeTask } from './serialize.ts';

const t = schema.tasks;
const DEFAULT_SORT = '-createdAt';

const COLUMNS: Record<string, ListField> = {
  title: columnField(t.title, 'title', 'text'),
  status: columnField(t.status, 'status', 'enum', { values: taskStatuses }),
  priority: columnField(t.priority, 'priority', 'enum', { values: taskPriorities }),
  type: columnField(t.type, 'type', 'enum', { values: taskTypes }),
  recurrence: columnField(t.recurrence, 'recurrence', 'enum', { values: taskRecurrences }),
  assigneeId: columnField(t.assigneeId, 'assigneeId', 'id'),
  recordId: columnField(t.recordId, 'recordId', 'id'),
  dueAt: columnField(t.dueAt, 'dueAt', 'instant'),
  completedAt: columnField(t.completedAt, 'completedAt', 'instant'),
  createdAt: columnField(t.createdAt, 'createdAt', 'instant'),
  updatedAt: columnField(t.updatedAt, 'updatedAt', 'instant'),
};
const SORTABLE = new Set(['createdAt', 'updatedAt', 'title', 'dueAt', 'completedAt']);

const fields: FieldTable = {
  fieldOf: (name) => COLUMNS[name],
  known: Object.keys(COLUMNS).join(', '),
};

/**
 * A page of tasks: newest first, or sorted and filtered (docs/api.md, "Filters, sorts and
 * counts"). `sort=createdAt` keeps the meaning it had before sorts had directions: newest
 * first. `sort=dueAt` without a filter keeps its own cursor (`dueCursor`, due-order.ts), so cursors
 * handed out before still work. A `recordId` parameter must name a live record of the
 * workspace (404 otherwise, like the records' `folderId`); `assigneeId` only filters, so tasks
 * of a former member stay findable.
 */
export async function findTasks(
  db: Database,
  actor: Actor,
  input: FindTasksInput,
  linked?: { scope: SQL; print: unknown[] },
): Promise<{ data: TaskOutput[]; meta: ListMeta }> {
  const filter = treeFromParam(input.filter);
  checkFilterFields(filter, fields);
  const sortName = input.sort === 'createdAt' || input.sort === undefined ? DEFAULT_SORT : input.sort;
  const sort = parseSort(
    sortName,
    (name) => (SORTABLE.has(name) ? COLUMNS[name] : undefined),
    [...SORTABLE].join(', '),
  );
  const scope = [...(await scopeOf(db, actor, input)), linked?.scope];
  const count = countModeOf(input.count);
  if (sortName === 'dueAt' && filter === undefined) {
    const paging = resolveDuePaging(input);
    const after = paging.kind === 'cursor' ? afterDueKey(paging.after) : undefined;
    const rows = await db
      .select()
      .from(t)
      .where(and(...scope, after))
      .orderBy(...dueOrder)
      .limit(paging.pageSize + 1)
      .offset(paging.kind === 'offset' ? paging.offset : 0);
    const page: { data: TaskOutput[]; meta: ListMeta } = toDuePage(rows, paging, serializeTask);
    await addCount(db, page.meta, count, t, and(...scope));
    return page;
  }
  const print = fingerprint([
    ...(linked?.print ?? []),
    'tasks',
    sortName,
    canonicalTree(filter),
    input.recordId ?? null,
    input.status ?? null,
    input.assigneeId ?? null,
  ]);
  return findListPage(db, {
    table: t,
    id: t.id,
    scope,
    fields,
    request: {
      filter,
      sort,
      legacy: sortName === DEFAULT_SORT && filter === undefined,
      print,
      page: input.page,
      pageSize: input.pageSize,
      cursor: input.cursor,
      count,
    },
    serialize: serializeTask,
  });
}

async function scopeOf(db: Database, actor: Actor, input: FindTasksInput): Promise<(SQL | undefined)[]> {
  const conditions: (SQL | undefined)[] = [eq(t.workspaceId, actor.workspaceId)];
  if (input.recordId !== undefined) {
    await loadRecord(db, actor, input.recordId);
    conditions.push(eq(t.recordId, input.recordId));
  }
  if (input.status !== undefined) conditions.push(eq(t.status, input.status));
  if (input.assigneeId !== undefined) conditions.push(eq(t.assigneeId, input.assigneeId));
  return conditions;
}

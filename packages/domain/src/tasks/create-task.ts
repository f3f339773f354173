import type { Database, Executor } from '@crm/db';
import { schema } from '@crm/db';
import type { SQL } from 'drizzle-orm';
import { linkPrimary } from '../relations/participants.ts';
import type { Actor } from '../shared/actor.ts';
import { assertMember } from '../shared/assert-member.ts';
import { newId } from '../shared/ids.ts';
import { missing } from '../shared/missing.ts';
import type { CreateTaskInput, TaskOutput } from './schemas.ts';
import { serializeTask, type TaskRow } from './serialize.ts';
import { appendTaskEvent } from './task-events.ts';
import { assertLiveRecord } from './task-links.ts';

/** POST: a new task is always OPEN (docs/api.md, "Tasks"); the body cannot choose its status. */
export async function createTask(db: Database, actor: Actor, input: CreateTaskInput): Promise<TaskOutput> {
  return db.transaction(async (tx) => {
    if (typeof input.assigneeId === 'string') {
      await assertMember(tx, actor.workspaceId, input.assigneeId, 'assigneeId');
    }
    if (typeof input.recordId === 'string') await assertLiveRecord(tx, actor, input.recordId);
    const row = await insertTask(
      tx,
      actor,
      {
        id: newId('task'),
        title: input.title,
        dueAt: input.dueAt ? new Date(input.dueAt) : null,
        assigneeId: input.assigneeId ?? null,
        recordId: input.recordId ?? null,
        priority: input.priority ?? 'MEDIUM',
        type: input.type ?? 'TODO',
        recurrence: input.recurrence ?? null,
      },
      { previousTaskId: null },
    );
    return serializeTask(row);
  });
}

/** An OPEN task about to be stored; `dueAt` may be SQL (a recurrence computes it in the database). */
export interface NewTask {
  id: string;
  title: string;
  dueAt: Date | SQL | null;
  assigneeId: string | null;
  recordId: string | null;
  priority: TaskRow['priority'];
  type: TaskRow['type'];
  recurrence: TaskRow['recurrence'];
}

/**
 * Inserts an OPEN task with already validated links and writes its `task.created` event in
 * the same transaction. `eventFields` adds to the payload (`previousTaskId` for an occurrence).
 */
export async function insertTask(
  tx: Executor,
  actor: Actor,
  values: NewTask,
  eventFields: { previousTaskId: string | null },
): Promise<TaskRow> {
  const [row] = await tx
    .insert(schema.tasks)
    .values({ ...values, workspaceId: actor.workspaceId, status: 'OPEN' })
    .returning();
  if (!row) missing('the row insert … returning wrote (row)');
  await linkPrimary(tx, actor, 'task', row.id, row.recordId);
  await appendTaskEvent(tx, actor, 'task.created', row, eventFields);
  return row;
}

import type { Database, Executor } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq, sql } from 'drizzle-orm';
import { linkPrimary } from '../relations/participants.ts';
import type { Actor } from '../shared/actor.ts';
import { assertMember } from '../shared/assert-member.ts';
import { newId } from '../shared/ids.ts';
import { missing } from '../shared/missing.ts';
import { loadTask } from './load-task.ts';
import { createNextOccurrence } from './recurrence.ts';
import type { TaskOutput, UpdateTaskInput } from './schemas.ts';
import { serializeTask, type TaskRow } from './serialize.ts';
import { appendTaskEvents } from './task-events.ts';
import { assertLiveRecord } from './task-links.ts';

type Changes = Partial<
  Pick<TaskRow, 'title' | 'dueAt' | 'assigneeId' | 'recordId' | 'status' | 'priority' | 'type'>
>;

/**
 * PATCH: fields not given stay; any change records `task.updated` with the changed fields
 * (and `task.completed` when it becomes DONE). OPEN→DONE sets `completedAt` and, for a recurring task,
 * creates its next occurrence in the same transaction; DONE→OPEN clears `completedAt`.
 * Completing the same task again later (DONE→OPEN→DONE) creates another occurrence: each
 * completion is one, so reopening a task by mistake and closing it can leave an extra one.
 */
export async function updateTask(db: Database, actor: Actor, input: UpdateTaskInput): Promise<TaskOutput> {
  return db.transaction(async (tx) => {
    const current = await loadTask(tx, actor, input.id, { forUpdate: true });
    const changes = await validChanges(tx, actor, current, input);
    if (Object.keys(changes).length === 0) return serializeTask(current);
    const completing = changes.status === 'DONE';
    const reopening = changes.status === 'OPEN';
    const t = schema.tasks;
    const [row] = await tx
      .update(t)
      .set({
        ...changes,
        ...(completing ? { completedAt: sql`now()` } : reopening ? { completedAt: null } : {}),
        updatedAt: sql`now()`,
      })
      .where(and(eq(t.workspaceId, actor.workspaceId), eq(t.id, current.id)))
      .returning();
    if (!row) missing('the row update … returning wrote (row)');
    const updated = row;
    if (changes.recordId) await linkPrimary(tx, actor, 'task', updated.id, changes.recordId);
    const before = serializeTask(current) as unknown as Record<string, unknown>;
    const after = serializeTask(updated) as unknown as Record<string, unknown>;
    const changedFields = Object.keys(changes);
    // The occurrence's id is drawn first so task.completed (naming it) precedes its task.created.
    const nextTaskId = completing && updated.recurrence ? newId('task') : null;
    await appendTaskEvents(tx, actor, updated, [
      {
        type: 'task.updated',
        extra: {
          changedFields,
          previous: Object.fromEntries(changedFields.map((field) => [field, before[field] ?? null])),
          changes: Object.fromEntries(
            changedFields.map((field) => [field, { from: before[field] ?? null, to: after[field] ?? null }]),
          ),
        },
      },
      ...(completing ? [{ type: 'task.completed' as const, extra: { nextTaskId } }] : []),
    ]);
    if (completing && updated.recurrence && nextTaskId) {
      await createNextOccurrence(tx, actor, updated, updated.recurrence, nextTaskId);
    }
    return serializeTask(updated);
  });
}

/**
 * The fields that really change. A new assignee must be a member and a new record live;
 * sending back the current value is accepted even if it would no longer pass (a GET → PATCH
 * round trip must not fail because a linked record went to Trash).
 */
async function validChanges(
  tx: Executor,
  actor: Actor,
  current: TaskRow,
  input: UpdateTaskInput,
): Promise<Changes> {
  const changes: Changes = {};
  for (const name of ['title', 'status', 'priority', 'type'] as const) {
    const value = input[name];
    if (value !== undefined && value !== current[name]) Object.assign(changes, { [name]: value });
  }
  if (input.dueAt !== undefined) {
    const dueAt = input.dueAt === null ? null : new Date(input.dueAt);
    if (dueAt?.getTime() !== current.dueAt?.getTime()) changes.dueAt = dueAt;
  }
  if (input.assigneeId !== undefined && input.assigneeId !== current.assigneeId) {
    if (input.assigneeId !== null) await assertMember(tx, actor.workspaceId, input.assigneeId, 'assigneeId');
    changes.assigneeId = input.assigneeId;
  }
  if (input.recordId !== undefined && input.recordId !== current.recordId) {
    if (input.recordId !== null) await assertLiveRecord(tx, actor, input.recordId);
    changes.recordId = input.recordId;
  }
  return changes;
}

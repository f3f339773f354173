import type { Executor } from '@crm/db';
import { type SQL, sql } from 'drizzle-orm';
import type { Actor } from '../shared/actor.ts';
import { insertTask } from './create-task.ts';
import type { TaskRecurrence } from './schemas.ts';
import type { TaskRow } from './serialize.ts';
import { isLiveRecord, isMember } from './task-links.ts';

const PERIODS: Record<TaskRecurrence, string> = {
  DAILY: '1 day',
  WEEKLY: '7 days',
  MONTHLY: '1 month',
  YEARLY: '1 year',
};

/**
 * `base` advanced by one period, computed by PostgreSQL on the UTC calendar: interval
 * arithmetic clamps to the month's last day (Jan 31 + 1 month = Feb 28 or 29), and doing it
 * in UTC keeps the result independent of the session time zone and its DST changes.
 */
export function advancedBy(recurrence: TaskRecurrence, base: Date): SQL {
  return sql`((${base.toISOString()}::timestamptz at time zone 'UTC') + ${PERIODS[recurrence]}::interval) at time zone 'UTC'`;
}

/**
 * Creates the next occurrence of a recurring task that has just become DONE: OPEN, with the
 * same title, assignee, record, priority, type and recurrence, due one period after the done
 * task's due time (or after its completion when it had none). An assignee who has left the
 * workspace or a record now in Trash is not carried over: a new task may only link live ones.
 */
export async function createNextOccurrence(
  tx: Executor,
  actor: Actor,
  done: TaskRow,
  recurrence: TaskRecurrence,
  id: string,
): Promise<TaskRow> {
  const base = done.dueAt ?? done.completedAt ?? new Date();
  const { assigneeId, recordId } = done;
  return insertTask(
    tx,
    actor,
    {
      id,
      title: done.title,
      dueAt: advancedBy(recurrence, base),
      assigneeId: assigneeId && (await isMember(tx, actor, assigneeId)) ? assigneeId : null,
      recordId: recordId && (await isLiveRecord(tx, actor, recordId)) ? recordId : null,
      priority: done.priority,
      type: done.type,
      recurrence,
    },
    { previousTaskId: done.id },
  );
}

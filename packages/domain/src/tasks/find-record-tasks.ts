import type { Database } from '@crm/db';
import { loadRecord } from '../records/load-record.ts';
import { linkedToRecord, withLinkTo } from '../relations/participants.ts';
import type { Actor } from '../shared/actor.ts';
import { findTasks } from './find-tasks.ts';
import type { FindRecordTasksInput } from './schemas.ts';

/**
 * `GET /records/{id}/tasks`: the tasks linked to a live record (its primary record or one of
 * its links, docs/api.md, "Relations"), as the task list pages them.
 */
export async function findRecordTasks(db: Database, actor: Actor, input: FindRecordTasksInput) {
  const { id, ...rest } = input;
  await loadRecord(db, actor, id);
  const page = await findTasks(db, actor, rest, {
    scope: linkedToRecord('task', actor, id),
    print: ['linked', id],
  });
  return withLinkTo(db, actor, 'task', id, page);
}

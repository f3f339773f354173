import { participantLinks } from '../relations/participants.ts';
import { updateTask } from './update-task.ts';

/** The records a task is about, as `dealRecordLinks` for deals (docs/api.md, "Relations"). */
export const taskRecordLinks = participantLinks('task', (db, actor, id) =>
  updateTask(db, actor, { id, recordId: null }),
);

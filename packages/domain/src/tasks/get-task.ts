import type { Database } from '@crm/db';
import type { Actor } from '../shared/actor.ts';
import { loadTask } from './load-task.ts';
import type { TaskOutput } from './schemas.ts';
import { serializeTask } from './serialize.ts';

export async function getTask(db: Database, actor: Actor, id: string): Promise<TaskOutput> {
  return serializeTask(await loadTask(db, actor, id));
}

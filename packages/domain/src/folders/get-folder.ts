import type { Database } from '@crm/db';
import type { Actor } from '../shared/actor.ts';
import { loadFolder } from './load-folder.ts';
import { serializeFolder } from './serialize.ts';

export async function getFolder(db: Database, actor: Actor, id: string) {
  return serializeFolder(await loadFolder(db, actor, id));
}

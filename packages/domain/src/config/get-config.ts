import type { Executor } from '@crm/db';
import type { Actor } from '../shared/actor.ts';
import { readConfig } from './read-config.ts';
import type { ConfigDocument } from './schemas.ts';

/** The workspace's configuration as a document (`GET /config`; docs/operations.md, "Configuration as code"). */
export async function getConfig(db: Executor, actor: Actor): Promise<ConfigDocument> {
  return (await readConfig(db, actor)).document;
}

import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import { asc, eq } from 'drizzle-orm';
import type { Actor } from '../shared/actor.ts';
import type { SandboxOutput } from './schemas.ts';
import { serializeSandbox } from './serialize.ts';

/** The sandboxes of the caller's workspace, oldest first. */
export async function findSandboxes(db: Executor, actor: Actor): Promise<SandboxOutput[]> {
  const w = schema.workspaces;
  const rows = await db
    .select()
    .from(w)
    .where(eq(w.sandboxOf, actor.workspaceId))
    .orderBy(asc(w.createdAt), asc(w.id));
  return rows.map(serializeSandbox);
}

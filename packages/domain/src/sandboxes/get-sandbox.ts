import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq } from 'drizzle-orm';
import type { Actor } from '../shared/actor.ts';
import { notFound } from '../shared/errors.ts';
import type { SandboxOutput } from './schemas.ts';
import { serializeSandbox } from './serialize.ts';

/** One sandbox of the caller's workspace (404 when it is not one of its sandboxes). */
export async function getSandbox(db: Executor, actor: Actor, id: string): Promise<SandboxOutput> {
  const w = schema.workspaces;
  const [row] = await db
    .select()
    .from(w)
    .where(and(eq(w.id, id), eq(w.sandboxOf, actor.workspaceId)));
  if (!row) throw notFound('Sandbox', id);
  return serializeSandbox(row);
}

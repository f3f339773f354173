import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import { and, asc, eq } from 'drizzle-orm';
import type { Actor } from '../shared/actor.ts';
import { notFound } from '../shared/errors.ts';
import type { SandboxOutput } from './schemas.ts';

type WorkspaceRow = typeof schema.workspaces.$inferSelect;

export function serializeSandbox(row: WorkspaceRow): SandboxOutput {
  return {
    id: row.id,
    name: row.name,
    sourceWorkspaceId: row.sandboxOf ?? '',
    allowUrls: [...row.sandboxAllow],
    createdAt: row.createdAt.toISOString(),
  };
}

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

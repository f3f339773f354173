import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq } from 'drizzle-orm';
import { audit } from '../audit/append-audit.ts';
import type { Actor } from '../shared/actor.ts';
import { notFound } from '../shared/errors.ts';
import { deleteWorkspaceData } from './delete-workspace-data.ts';

/**
 * Deletes a sandbox of the caller's workspace (docs/operations.md, "Sandboxes"): its records,
 * configuration, history, keys and sessions, and the workspace itself. Its keys stop working
 * at once in every process.
 */
export async function deleteSandbox(
  db: Database,
  actor: Actor,
  id: string,
): Promise<{ id: string; deleted: true }> {
  const w = schema.workspaces;
  const [row] = await db
    .select({ id: w.id, name: w.name })
    .from(w)
    .where(and(eq(w.id, id), eq(w.sandboxOf, actor.workspaceId)));
  if (!row) throw notFound('Sandbox', id);
  await deleteWorkspaceData(db, row.id);
  await audit(db, actor, {
    action: 'sandbox.deleted',
    target: { type: 'workspace', id: row.id },
    details: { name: row.name },
  });
  return { id: row.id, deleted: true };
}

import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq } from 'drizzle-orm';
import { DomainError } from '../shared/errors.ts';
import { createSession, type NewSession } from '../users/create-session.ts';
import { endSession } from '../users/end-session.ts';

/**
 * Moves a signed-in user's session to another workspace of theirs (the web app's "Open" of a
 * sandbox, and its way back; docs/operations.md, "Sandboxes"): a new session there, the old
 * one ended. A member of a workspace may open its sandboxes: one who joined after a sandbox
 * was made becomes a member of it then, with the role they have in the workspace.
 */
export async function openWorkspace(
  db: Database,
  input: { token: string; userId: string; workspaceId: string },
): Promise<NewSession> {
  const m = schema.memberships;
  const w = schema.workspaces;
  const [target] = await db
    .select({ id: w.id, sandboxOf: w.sandboxOf })
    .from(w)
    .where(eq(w.id, input.workspaceId));
  const refused = new DomainError('NOT_FOUND', `Workspace ${input.workspaceId} not found`);
  if (!target) throw refused;
  const memberOf = async (workspaceId: string) =>
    (
      await db
        .select({ role: m.role })
        .from(m)
        .where(and(eq(m.workspaceId, workspaceId), eq(m.userId, input.userId)))
    )[0];
  if (!(await memberOf(target.id))) {
    const source = target.sandboxOf ? await memberOf(target.sandboxOf) : undefined;
    if (!source) throw refused;
    await db
      .insert(m)
      .values({ workspaceId: target.id, userId: input.userId, role: source.role })
      .onConflictDoNothing();
  }
  const session = await createSession(db, input.userId, target.id);
  await endSession(db, input.token);
  return session;
}

import { createContext, useContext } from 'react';
import { authCall } from './trpc.ts';

export interface SessionInfo {
  user: { id: string; name: string; email: string; role: 'OWNER' | 'ADMIN' | 'MEMBER' };
  /** `sandboxOf`: for a sandbox, the workspace it was made from (docs/operations.md, "Sandboxes"). */
  workspace: { id: string; name: string; sandboxOf: string | null };
  csrfToken: string;
}

export const SessionContext = createContext<SessionInfo | null>(null);

export function useSession(): SessionInfo {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in page');
  return session;
}

/** Owners and admins manage keys, webhooks, automations and members (the server enforces it too). */
export function canManage(session: SessionInfo): boolean {
  return session.user.role === 'OWNER' || session.user.role === 'ADMIN';
}

/**
 * Opens another workspace of the signed-in user (a sandbox, or the workspace it was made
 * from): the session moves there, and the app starts again on its records, so that nothing
 * read in the workspace left shows in the other.
 */
export async function openWorkspace(workspaceId: string): Promise<void> {
  await authCall('open-workspace', { workspaceId });
  window.location.assign('/');
}

import { createContext, useContext } from 'react';

export interface SessionInfo {
  user: { id: string; name: string; email: string; role: 'OWNER' | 'ADMIN' | 'MEMBER' };
  workspace: { id: string; name: string };
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

import type { Database } from '@crm/db';
import { DomainError } from '../shared/errors.ts';
import { checkPassword } from './check-password.ts';
import { createSession, type NewSession } from './create-session.ts';
import { auditFailedSignIn, auditSignIn } from './sign-in-audit.ts';
import { type SignInLimits, throttledSignIn } from './sign-in-throttle.ts';

/** Where a sign-in comes from, for the throttles (sign-in-throttle.ts) and the audit log. */
export interface SignInSource {
  /** The client address (the socket's, or the proxy's X-Forwarded-For with TRUST_PROXY). */
  address: string;
  limits?: SignInLimits;
  /** The request's id, as the audit log keeps it. */
  requestId?: string;
}

/**
 * Checks an email and password and starts a session. Every failure is the same
 * UNAUTHORIZED, whether the address is unknown, has no password or the password is wrong;
 * failures count against the sign-in throttles of the client address and the account.
 */
export async function signIn(
  db: Database,
  input: { email: string; password: string },
  from: SignInSource,
): Promise<NewSession> {
  const email = input.email.trim().toLowerCase();
  let userId: string;
  try {
    userId = await throttledSignIn(db, { address: from.address, account: email }, from.limits, () =>
      checkPassword(db, email, input.password),
    );
  } catch (error) {
    // Failed sign-ins are in the audit log of the user's workspaces (docs/api.md, "Audit log").
    if (error instanceof DomainError && (error.code === 'UNAUTHORIZED' || error.code === 'RATE_LIMITED')) {
      await auditFailedSignIn(
        db,
        email,
        from,
        error.code === 'UNAUTHORIZED' ? 'wrong-credentials' : 'throttled',
      );
    }
    throw error;
  }
  return db.transaction(async (tx) => {
    const session = await createSession(tx, userId);
    await auditSignIn(tx, userId, session.workspaceId, from);
    return session;
  });
}

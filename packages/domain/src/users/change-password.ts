import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { eq } from 'drizzle-orm';
import { DomainError, invalid } from '../shared/errors.ts';
import { authenticateSession } from './authenticate-session.ts';
import { checkPassword, wrongCredentials } from './check-password.ts';
import { endUserSessions } from './end-user-sessions.ts';
import { hashPassword, passwordInput } from './passwords.ts';
import type { SignInSource } from './sign-in.ts';
import { throttledSignIn } from './sign-in-throttle.ts';

/**
 * A signed-in user changes their password: the current one must be given (a wrong one counts
 * as a failed sign-in), and every other session of the user ends; the one making the change
 * stays.
 */
export async function changePassword(
  db: Database,
  input: { token: string; currentPassword: string; newPassword: string },
  from: SignInSource,
): Promise<{ sessionsEnded: number }> {
  const session = await authenticateSession(db, input.token);
  if (!session) throw new DomainError('UNAUTHORIZED', 'Your session has ended; sign in again');
  const parsed = passwordInput.safeParse(input.newPassword);
  if (!parsed.success) throw invalid('newPassword', parsed.error.issues[0]?.message ?? 'invalid');
  await throttledSignIn(db, { address: from.address, account: session.email }, from.limits, async () => {
    const userId = await checkPassword(db, session.email, input.currentPassword);
    if (userId !== session.actor.userId) throw wrongCredentials();
  });
  const passwordHash = await hashPassword(input.newPassword);
  return db.transaction(async (tx) => {
    await tx
      .update(schema.users)
      .set({ passwordHash, updatedAt: new Date() })
      .where(eq(schema.users.id, session.actor.userId));
    return { sessionsEnded: await endUserSessions(tx, session.actor.userId, input.token) };
  });
}

import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { eq } from 'drizzle-orm';
import { invalid, notFound } from '../shared/errors.ts';
import { endUserSessions } from './end-user-sessions.ts';
import { hashPassword, passwordInput } from './passwords.ts';

/**
 * Sets the password of a user by email (the CLI's way in for the bootstrap owner, and the
 * reset of a forgotten password): every session of the user ends, in the same transaction.
 */
export async function setPassword(
  db: Database,
  email: string,
  password: string,
): Promise<{ userId: string; sessionsEnded: number }> {
  const parsed = passwordInput.safeParse(password);
  if (!parsed.success) throw invalid('password', parsed.error.issues[0]?.message ?? 'invalid');
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(schema.users)
      .set({ passwordHash, updatedAt: new Date() })
      .where(eq(schema.users.email, email.trim().toLowerCase()))
      .returning({ id: schema.users.id });
    if (!row) throw notFound('User with email', email);
    return { userId: row.id, sessionsEnded: await endUserSessions(tx, row.id) };
  });
}

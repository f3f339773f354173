import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { eq } from 'drizzle-orm';
import { DomainError } from '../shared/errors.ts';
import { spendVerificationTime, verifyPassword } from './passwords.ts';

/** The id of the user with this email and password; UNAUTHORIZED otherwise, in about the same time. */
export async function checkPassword(db: Database, email: string, password: string): Promise<string> {
  const [user] = await db
    .select({ id: schema.users.id, passwordHash: schema.users.passwordHash })
    .from(schema.users)
    .where(eq(schema.users.email, email));
  if (!user?.passwordHash) {
    await spendVerificationTime(password);
    throw wrongCredentials();
  }
  if (!(await verifyPassword(user.passwordHash, password))) throw wrongCredentials();
  return user.id;
}

export const wrongCredentials = () => new DomainError('UNAUTHORIZED', 'Wrong email or password');

import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq, ne } from 'drizzle-orm';
import { hashToken } from './create-session.ts';

/**
 * Ends the sessions of a user, all of them or all but the one whose token is given (the
 * session that changed the password stays signed in). Returns how many ended.
 */
export async function endUserSessions(db: Executor, userId: string, keepToken?: string): Promise<number> {
  const s = schema.sessions;
  const ended = await db
    .delete(s)
    .where(and(eq(s.userId, userId), keepToken ? ne(s.tokenHash, hashToken(keepToken)) : undefined))
    .returning({ tokenHash: s.tokenHash });
  return ended.length;
}

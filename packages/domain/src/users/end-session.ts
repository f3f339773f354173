import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { eq } from 'drizzle-orm';
import { hashToken } from './create-session.ts';

/** Ends a session; an unknown token is already signed out. */
export async function endSession(db: Database, token: string | undefined): Promise<void> {
  if (!token) return;
  await db.delete(schema.sessions).where(eq(schema.sessions.tokenHash, hashToken(token)));
}

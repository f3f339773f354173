import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { sql } from 'drizzle-orm';
import { SESSION_IDLE_MS } from './create-session.ts';

/** Removes sessions past their end (run by the worker's daily clean-up). */
export async function pruneSessions(db: Database): Promise<number> {
  const s = schema.sessions;
  const idle = new Date(Date.now() - SESSION_IDLE_MS);
  const deleted = await db
    .delete(s)
    .where(sql`${s.expiresAt} <= now() or ${s.lastSeenAt} < ${idle}`)
    .returning({ tokenHash: s.tokenHash });
  return deleted.length;
}

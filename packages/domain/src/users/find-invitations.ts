import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { desc, eq } from 'drizzle-orm';
import type { Actor } from '../shared/actor.ts';
import type { InvitationOutput } from './schemas.ts';
import { serializeInvitation } from './serialize.ts';

/** The workspace's invitations, newest first (a short list: no paging). */
export async function findInvitations(db: Database, actor: Actor): Promise<InvitationOutput[]> {
  const i = schema.invitations;
  const rows = await db
    .select()
    .from(i)
    .where(eq(i.workspaceId, actor.workspaceId))
    .orderBy(desc(i.createdAt), desc(i.id))
    .limit(200);
  return rows.map(serializeInvitation);
}

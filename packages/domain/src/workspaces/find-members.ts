import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { memberRoles } from '@crm/db/schema';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Actor } from '../shared/actor.ts';
import { afterCursor, keysetOrder } from '../shared/keyset.ts';
import { type PagingInput, pagingInput, resolvePaging, toPage } from '../shared/paging.ts';
import { instantOutput } from '../shared/schemas.ts';

export const memberOutput = z
  .object({
    id: z.string().meta({ example: 'usr_01jq3v6f6ve7s9t8m1k2c3d4e5' }),
    name: z.string(),
    email: z.string(),
    role: z.enum(memberRoles),
    createdAt: instantOutput().meta({ description: 'When the user joined this workspace.' }),
  })
  .meta({ id: 'Member' });

export type MemberOutput = z.infer<typeof memberOutput>;

export const findMembersInput = z.strictObject({ ...pagingInput });

/** A page of the workspace's members, oldest first (the owner who created it leads). */
export async function findMembers(db: Database, actor: Actor, input: PagingInput) {
  const paging = resolvePaging(input);
  const m = schema.memberships;
  const u = schema.users;
  const rows = await db
    .select({ id: m.userId, name: u.name, email: u.email, role: m.role, createdAt: m.createdAt })
    .from(m)
    .innerJoin(u, eq(u.id, m.userId))
    .where(and(eq(m.workspaceId, actor.workspaceId), afterCursor(m.createdAt, m.userId, paging, 'asc')))
    .orderBy(...keysetOrder(m.createdAt, m.userId, 'asc'))
    .limit(paging.pageSize + 1)
    .offset(paging.kind === 'offset' ? paging.offset : 0);
  return toPage(rows, paging, (row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}

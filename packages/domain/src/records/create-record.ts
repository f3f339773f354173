import type { Database, Executor } from '@crm/db';
import { schema } from '@crm/db';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { loadFolder } from '../folders/load-folder.ts';
import type { Actor } from '../shared/actor.ts';
import { invalid, invalidReference } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { assertMember } from '../workspaces/assert-member.ts';
import { validateCustomValues } from './custom-values.ts';
import { recordEvent } from './record-events.ts';
import type { createRecordInput } from './schemas.ts';
import { searchTextOf } from './search-text.ts';
import { type RecordRow, serializeRecord } from './serialize.ts';
import { applyRecordChanges } from './update-record.ts';

export type CreateRecordInput = z.infer<typeof createRecordInput>;

/**
 * Creates a record, or with `upsert: 'email'` updates the live record of the folder that has
 * the same email (case-insensitive). `created` tells which happened (201 or 200).
 */
export async function createRecord(db: Database, actor: Actor, input: CreateRecordInput) {
  return db.transaction(async (tx) => {
    // A share lock keeps the folder's fields fixed while the values are checked and stored.
    const folder = await loadFolder(tx, actor, input.folderId, 'share').catch(
      invalidReference('folderId', `folder ${input.folderId} does not exist`),
    );
    if (typeof input.ownerId === 'string')
      await assertMember(tx, actor.workspaceId, input.ownerId, 'ownerId');
    const values = validateCustomValues(folder.fields, input.data ?? {});
    if (input.upsert === 'email') {
      if (!input.email) throw invalid('email', 'is required when upserting by email');
      const existing = await findLiveByEmail(tx, actor, folder.id, input.email);
      if (existing) {
        const { row } = await applyRecordChanges(tx, actor, existing, folder.fields, {
          title: input.title,
          email: input.email,
          ...(input.phone !== undefined ? { phone: input.phone } : {}),
          ...(input.ownerId !== undefined ? { ownerId: input.ownerId } : {}),
          data: values,
        });
        return { record: serializeRecord(row), created: false };
      }
    }
    const data = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== null));
    const email = input.email ?? null;
    const phone = input.phone ?? null;
    const [row] = await tx
      .insert(schema.records)
      .values({
        workspaceId: actor.workspaceId,
        id: newId('record'),
        folderId: folder.id,
        title: input.title,
        email,
        phone,
        data,
        ownerId: input.ownerId ?? null,
        searchText: searchTextOf({ title: input.title, email, phone, data }, folder.fields),
      })
      .returning();
    await recordEvent(tx, actor, 'record.created', row!);
    return { record: serializeRecord(row!), created: true };
  });
}

/**
 * The live record of a folder with this email. Concurrent upserts of one email wait on a
 * transaction-scoped advisory lock, so the second sees the first's record instead of
 * creating a duplicate.
 */
async function findLiveByEmail(
  tx: Executor,
  actor: Actor,
  folderId: string,
  email: string,
): Promise<RecordRow | undefined> {
  const lockKey = `${actor.workspaceId}:${folderId}:${email.toLowerCase()}`;
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${lockKey}, 0))`);
  const r = schema.records;
  const rows = await tx
    .select()
    .from(r)
    .where(
      and(
        eq(r.workspaceId, actor.workspaceId),
        eq(r.folderId, folderId),
        isNull(r.trashedAt),
        sql`lower(${r.email}) = ${email.toLowerCase()}`,
      ),
    )
    .orderBy(asc(r.createdAt), asc(r.id))
    .limit(1)
    .for('update');
  return rows[0];
}

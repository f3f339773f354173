import { type Database, type Executor, isSharded, schema } from '@crm/db';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { loadFolder } from '../folders/load-folder.ts';
import type { FolderRow } from '../folders/serialize.ts';
import { appendRecordEvent } from '../record-model/record-events.ts';
import type { createRecordInput } from '../record-model/schemas.ts';
import { type RecordRow, recordColumns, serializeRecord } from '../record-model/serialize.ts';
import { toRecordSnapshot } from '../record-model/snapshot.ts';
import { linkWrittenValues, oneValuesIn, resolveOneValuesOf } from '../relations/one-values.ts';
import type { Actor } from '../shared/actor.ts';
import { assertMember } from '../shared/assert-member.ts';
import { validateCustomValues } from '../shared/custom-values.ts';
import { invalid, invalidReference } from '../shared/errors.ts';
import { writeWithEvents } from '../shared/events.ts';
import { newId } from '../shared/ids.ts';
import { missing } from '../shared/missing.ts';
import { searchSignature } from '../shared/search-signature.ts';
import { searchTextOf, searchTextValue } from '../shared/search-text.ts';
import { applyRecordChanges, holdsRelationValues } from './update-record.ts';

export type CreateRecordInput = z.infer<typeof createRecordInput>;

/**
 * Creates a record, or with `upsert: 'email'` updates the live record of the folder that has
 * the same email (case-insensitive). `created` tells which happened (201 or 200).
 */
export async function createRecord(db: Database, actor: Actor, input: CreateRecordInput) {
  const made = await createRecordInOneStatement(db, actor, input);
  if (made) return made;
  return db.transaction(async (tx) => {
    const folder = await loadRecordFolder(tx, actor, input.folderId);
    if (typeof input.ownerId === 'string')
      await assertMember(tx, actor.workspaceId, input.ownerId, 'ownerId');
    const values = validateCustomValues(folder.fields, input.data ?? {});
    await resolveOneValuesOf(tx, actor, folder, values);
    if (input.upsert === 'email') {
      if (!input.email) throw invalid('email', 'is required when upserting by email');
      const existing = await findLiveByEmail(tx, actor, folder.id, input.email);
      if (existing) {
        const { row } = await applyRecordChanges(tx, actor, existing, folder, {
          title: input.title,
          email: input.email,
          ...(input.phone !== undefined ? { phone: input.phone } : {}),
          ...(input.ownerId !== undefined ? { ownerId: input.ownerId } : {}),
          data: values,
        });
        return { record: serializeRecord(row), created: false };
      }
    }
    const row = await insertRecord(tx, actor, folder, newRecordRow(actor, folder, input, values));
    return { record: serializeRecord(row), created: true };
  });
}

/**
 * The common create in one statement, without BEGIN and COMMIT (docs/performance.md, "Writes
 * in one statement"): the folder read without a lock (from the process's folder cache when it
 * is kept there), the values checked against its fields, then one statement that share-locks
 * the folder only if its fields are still exactly those, inserts the record and writes its
 * event, deliveries and workflow starts (writeWithEvents). Undefined when the create needs
 * more than that, and the caller then takes the transactional path, which decides every case
 * again with the folder locked from the start: an upsert, an owner to check, ONE relation
 * values to resolve and link, a sharded database, values the folder as read refuses (its
 * fields may have just changed), and a folder whose fields changed before the statement ran.
 */
async function createRecordInOneStatement(
  db: Database,
  actor: Actor,
  input: CreateRecordInput,
): Promise<{ record: ReturnType<typeof serializeRecord>; created: true } | undefined> {
  if (input.upsert === 'email' || typeof input.ownerId === 'string') return undefined;
  if (await isSharded(db)) return undefined;
  let folder: FolderRow;
  let values: Record<string, unknown>;
  try {
    folder = await loadFolder(db, actor, input.folderId);
    values = validateCustomValues(folder.fields, input.data ?? {});
  } catch {
    return undefined;
  }
  if (holdsRelationValues(folder, values)) return undefined;
  const row = newRecordRow(actor, folder, input, values);
  const r = schema.records;
  const written = await writeWithEvents(
    db,
    'create_record',
    actor,
    [
      {
        type: 'record.created',
        fields: {
          recordId: row.id,
          folderId: row.folderId,
          record: toRecordSnapshot({ ...rowOf(row), createdAt: new Date(0), updatedAt: new Date(0) }),
        },
      },
    ],
    sql`
      insert into ${r} (workspace_id, id, folder_id, title, email, phone, data, owner_id, search_text, search_signature)
      select ${row.workspaceId}, ${row.id}, ${row.folderId}, ${row.title}, ${row.email}, ${row.phone},
             ${JSON.stringify(row.data)}::jsonb, null, ${searchTextValue(row.searchText)}, ${row.searchSignature ?? null}::bytea
        from ${schema.folders} f
       where f.workspace_id = ${actor.workspaceId} and f.id = ${folder.id}
         and f.fields = ${JSON.stringify(folder.fields)}::jsonb
         for share of f
      returning created_at, updated_at`,
    'record',
  );
  return written && { record: serializeRecord({ ...rowOf(row), ...written }), created: true };
}

/** A new record's row as a read returns it, its instants aside. */
function rowOf(values: typeof schema.records.$inferInsert): Omit<RecordRow, 'createdAt' | 'updatedAt'> {
  return {
    workspaceId: values.workspaceId,
    id: values.id,
    folderId: values.folderId,
    title: values.title,
    email: values.email ?? null,
    phone: values.phone ?? null,
    data: values.data ?? {},
    ownerId: values.ownerId ?? null,
    trashedAt: null,
  };
}

/**
 * Inserts a new record and writes its `record.created` event in the same transaction, then
 * the links its ONE relation values stand for (docs/api.md, "Relations").
 */
export async function insertRecord(
  tx: Executor,
  actor: Actor,
  folder: FolderRow,
  values: typeof schema.records.$inferInsert & { searchText: string },
): Promise<RecordRow> {
  const [row] = await tx
    .insert(schema.records)
    .values({ ...values, searchText: searchTextValue(values.searchText) })
    .returning(recordColumns);
  if (!row) missing('the row insert … returning wrote (row)');
  await appendRecordEvent(tx, actor, 'record.created', row);
  const refused = await linkWrittenValues(tx, actor, [
    { recordId: row.id, folder, values: oneValuesIn(folder, row.data) },
  ]);
  if (refused) throw refused;
  return row;
}

/**
 * The folder a new record goes into, share-locked so its fields stay fixed while values are
 * checked and stored. A folder that is not found makes the body invalid (400 naming folderId).
 */
export function loadRecordFolder(tx: Executor, actor: Actor, folderId: string): Promise<FolderRow> {
  return loadFolder(tx, actor, folderId, 'share').catch(
    invalidReference('folderId', `folder ${folderId} does not exist`),
  );
}

/**
 * The row of a new record, from its input and its custom values as `validateCustomValues`
 * returned them (a `null` value is simply not stored on create).
 */
export function newRecordRow(
  actor: Actor,
  folder: FolderRow,
  input: Omit<CreateRecordInput, 'upsert'>,
  values: Record<string, unknown>,
): typeof schema.records.$inferInsert & { searchText: string } {
  const data = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== null));
  const email = input.email ?? null;
  const phone = input.phone ?? null;
  const searchText = searchTextOf({ title: input.title, email, phone, data }, folder.fields);
  return {
    workspaceId: actor.workspaceId,
    id: newId('record'),
    folderId: folder.id,
    title: input.title,
    email,
    phone,
    data,
    ownerId: input.ownerId ?? null,
    searchText,
    searchSignature: searchSignature(searchText),
  };
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
  const lockKey = emailLockKey(actor, folderId, email);
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${lockKey}, 0))`);
  const r = schema.records;
  // Every match, without ORDER BY … LIMIT 1: with one, PostgreSQL walks the folder newest
  // first hoping to meet the email soon, which for a new email reads the whole folder (9 ms
  // at 10,000 records, growing with it); this way records_live_email_idx answers in 0.05 ms.
  // An email is on one live record of a folder unless records were created with it without
  // upsert, so the matches are few; the oldest is the one upserted.
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
    .for('update');
  return rows.reduce<RecordRow | undefined>(
    (oldest, row) => (oldest && !isOlder(row, oldest) ? oldest : row),
    undefined,
  );
}

function isOlder(a: RecordRow, b: RecordRow): boolean {
  const at = a.createdAt.getTime() - b.createdAt.getTime();
  return at < 0 || (at === 0 && a.id < b.id);
}

const emailLockKey = (actor: Actor, folderId: string, email: string) =>
  `${actor.workspaceId}:${folderId}:${email.toLowerCase()}`;

/**
 * Takes the upsert locks of many emails at once, in one order (batch upserts): two batches
 * upserting the same emails in different orders then wait for each other instead of
 * deadlocking. The locks are re-entrant, so each item's own upsert takes its lock again.
 */
export async function lockUpsertEmails(
  tx: Executor,
  actor: Actor,
  keys: { folderId: string; email: string }[],
): Promise<void> {
  if (keys.length === 0) return;
  const lockKeys = keys.map((k) => emailLockKey(actor, k.folderId, k.email));
  // PostgreSQL computes a volatile output column after the sort: the locks are taken in order.
  await tx.execute(sql`
    select pg_advisory_xact_lock(h)
      from (select distinct hashtextextended(k, 0) as h
              from jsonb_array_elements_text(${JSON.stringify(lockKeys)}::jsonb) as k) as keys
     order by h`);
}

import { type Database, type Executor, isSharded, schema } from '@crm/db';
import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { loadFolder } from '../folders/load-folder.ts';
import type { FolderRow } from '../folders/serialize.ts';
import { appendRecordEvent, recordUpdatedFields } from '../record-model/record-events.ts';
import type { updateRecordInput } from '../record-model/schemas.ts';
import { type RecordRow, recordColumns, serializeRecord } from '../record-model/serialize.ts';
import { linkWrittenValues, oneValuesIn, resolveOneValuesOf } from '../relations/one-values.ts';
import type { Actor } from '../shared/actor.ts';
import { assertMember } from '../shared/assert-member.ts';
import { validateCustomValues } from '../shared/custom-values.ts';
import { writeWithEvents } from '../shared/events.ts';
import { missing } from '../shared/missing.ts';
import { searchSignature } from '../shared/search-signature.ts';
import { searchTextOf, searchTextValue } from '../shared/search-text.ts';
import { loadRecord } from './load-record.ts';

export interface RecordChanges {
  title?: string | undefined;
  email?: string | null | undefined;
  phone?: string | null | undefined;
  ownerId?: string | null | undefined;
  /** Already validated; merged into the stored values, `null` removes a key. */
  data?: Record<string, unknown> | undefined;
}

export interface AppliedChanges {
  row: RecordRow;
  /** Top-level names and `data.<key>` of what really changed. */
  changedFields: string[];
  /** The old values of exactly those fields. */
  previous: Record<string, unknown>;
}

/** PATCH: fields not given stay; `data` merges (docs/api.md, "Records"). */
export async function updateRecord(db: Database, actor: Actor, input: z.infer<typeof updateRecordInput>) {
  const written = await updateRecordInOneStatement(db, actor, input);
  if (written) return written;
  return db.transaction(async (tx) => {
    const current = await loadRecord(tx, actor, input.id, { forUpdate: true });
    const folder = await loadFolder(tx, actor, current.folderId, 'share');
    if (typeof input.ownerId === 'string')
      await assertMember(tx, actor.workspaceId, input.ownerId, 'ownerId');
    const data = input.data === undefined ? undefined : validateCustomValues(folder.fields, input.data);
    if (data) await resolveOneValuesOf(tx, actor, folder, data);
    const { row } = await applyRecordChanges(tx, actor, current, folder, { ...input, data });
    return serializeRecord(row);
  });
}

/**
 * The common PATCH in two statements and no transaction (docs/performance.md, "Writes in one
 * statement"): the record read without a lock, its folder from the process's folder cache,
 * the changes worked out, then one statement that updates the record only if it still holds
 * exactly what was read and its folder's fields are still those the values were checked
 * against (share-locked), with its `record.updated` event, field history, deliveries and
 * workflow starts (writeWithEvents). A record not found is a 404 as on the other path; nothing
 * to change answers the record as it is. Undefined when the change needs more, and the caller
 * then takes the transactional path, which decides every case again with the record locked:
 * an owner to check, ONE relation values, a sharded database, values the folder as read
 * refuses, and a record or folder changed between the read and the write.
 */
async function updateRecordInOneStatement(
  db: Database,
  actor: Actor,
  input: z.infer<typeof updateRecordInput>,
): Promise<ReturnType<typeof serializeRecord> | undefined> {
  if (typeof input.ownerId === 'string') return undefined;
  if (await isSharded(db)) return undefined;
  const current = await loadRecord(db, actor, input.id);
  let folder: FolderRow;
  let data: Record<string, unknown> | undefined;
  try {
    folder = await loadFolder(db, actor, current.folderId);
    data = input.data === undefined ? undefined : validateCustomValues(folder.fields, input.data);
  } catch {
    return undefined;
  }
  if (data && holdsRelationValues(folder, data)) return undefined;
  const plan = planRecordChanges(current, folder.fields, { ...input, data });
  if (plan.changedFields.length === 0) return serializeRecord(current);
  const next: RecordRow = { ...current, ...plan.next, data: plan.data };
  const r = schema.records;
  const written = await writeWithEvents(
    db,
    'update_record',
    actor,
    [{ type: 'record.updated', fields: recordUpdatedFields(next, plan.changedFields, plan.previous) }],
    sql`
      update ${r} set title = ${next.title}, email = ${next.email}, phone = ${next.phone},
             owner_id = ${next.ownerId}, data = ${JSON.stringify(next.data)}::jsonb,
             search_text = ${searchTextValue(plan.searchText)},
             search_signature = ${searchSignature(plan.searchText)}::bytea, updated_at = now()
       where workspace_id = ${actor.workspaceId} and id = ${current.id} and trashed_at is null
         and title = ${current.title} and email is not distinct from ${current.email}
         and phone is not distinct from ${current.phone} and owner_id is not distinct from ${current.ownerId}
         and data = ${JSON.stringify(current.data)}::jsonb
         and exists (
           select 1 from ${schema.folders} f
            where f.workspace_id = ${actor.workspaceId} and f.id = ${folder.id}
              and f.fields = ${JSON.stringify(folder.fields)}::jsonb
              for share of f)
      returning created_at, updated_at`,
    'record',
  );
  return written && serializeRecord({ ...next, updatedAt: written.updatedAt });
}

/** Whether `values` hold a value of one of the folder's RELATION fields (resolved and linked on the transactional path). */
export function holdsRelationValues(folder: FolderRow, values: Record<string, unknown>): boolean {
  return folder.fields.some((f) => f.type === 'RELATION' && Object.hasOwn(values, f.key));
}

/** What a change makes of a record: its new values, and which fields really change and from what. */
function planRecordChanges(
  current: RecordRow,
  fields: FolderRow['fields'],
  changes: RecordChanges,
): {
  next: Pick<RecordRow, 'title' | 'email' | 'phone' | 'ownerId'>;
  data: Record<string, unknown>;
  changedFields: string[];
  previous: Record<string, unknown>;
  searchText: string;
} {
  const changedFields: string[] = [];
  const previous: Record<string, unknown> = {};
  const next = { title: current.title, email: current.email, phone: current.phone, ownerId: current.ownerId };
  for (const name of ['title', 'email', 'phone', 'ownerId'] as const) {
    const value = changes[name];
    if (value === undefined || value === current[name]) continue;
    (next as Record<string, unknown>)[name] = value;
    changedFields.push(name);
    previous[name] = current[name];
  }
  const data = { ...current.data };
  for (const [key, value] of Object.entries(changes.data ?? {})) {
    const had = Object.hasOwn(data, key);
    if (value === null) {
      if (!had) continue;
      delete data[key];
    } else {
      if (had && JSON.stringify(data[key]) === JSON.stringify(value)) continue;
      data[key] = value;
    }
    changedFields.push(`data.${key}`);
    previous[`data.${key}`] = had ? current.data[key] : null;
  }
  return { next, data, changedFields, previous, searchText: searchTextOf({ ...next, data }, fields) };
}

/**
 * Writes what changes of a record's values, with `record.updated` naming each changed field
 * and its old value; then the links of the ONE relation values that changed (docs/api.md,
 * "Relations"). Nothing changed, nothing is written.
 */
export async function applyRecordChanges(
  tx: Executor,
  actor: Actor,
  current: RecordRow,
  folder: FolderRow,
  changes: RecordChanges,
): Promise<AppliedChanges> {
  const { next, data, changedFields, previous, searchText } = planRecordChanges(
    current,
    folder.fields,
    changes,
  );
  if (changedFields.length === 0) return { row: current, changedFields, previous };
  const r = schema.records;
  const [row] = await tx
    .update(r)
    .set({
      ...next,
      data,
      searchText: searchTextValue(searchText),
      searchSignature: searchSignature(searchText),
      updatedAt: sql`now()`,
    })
    .where(and(eq(r.workspaceId, actor.workspaceId), eq(r.id, current.id)))
    .returning(recordColumns);
  if (!row) missing('the row update … returning wrote (row)');
  await appendRecordEvent(tx, actor, 'record.updated', row, { changedFields, previous });
  const changedData = Object.fromEntries(
    changedFields.filter((f) => f.startsWith('data.')).map((f) => [f.slice(5), data[f.slice(5)] ?? null]),
  );
  const refused = await linkWrittenValues(tx, actor, [
    { recordId: row.id, folder, values: oneValuesIn(folder, changedData) },
  ]);
  if (refused) throw refused;
  return { row: row, changedFields, previous };
}

import type { Database, Executor } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { loadFolder } from '../folders/load-folder.ts';
import type { FolderRow } from '../folders/serialize.ts';
import { linkWrittenValues, oneValuesIn, resolveOneValuesOf } from '../relations/one-values.ts';
import type { Actor } from '../shared/actor.ts';
import { assertMember } from '../workspaces/assert-member.ts';
import { validateCustomValues } from './custom-values.ts';
import { loadRecord } from './load-record.ts';
import { recordEvent } from './record-events.ts';
import type { updateRecordInput } from './schemas.ts';
import { searchTextOf } from './search-text.ts';
import { type RecordRow, serializeRecord } from './serialize.ts';

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

/** PATCH: fields not given stay; `data` merges (contract §4). */
export async function updateRecord(db: Database, actor: Actor, input: z.infer<typeof updateRecordInput>) {
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
  const fields = folder.fields;
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
  if (changedFields.length === 0) return { row: current, changedFields, previous };
  const r = schema.records;
  const [row] = await tx
    .update(r)
    .set({
      ...next,
      data,
      searchText: searchTextOf({ ...next, data }, fields),
      updatedAt: sql`now()`,
    })
    .where(and(eq(r.workspaceId, actor.workspaceId), eq(r.id, current.id)))
    .returning();
  await recordEvent(tx, actor, 'record.updated', row!, { changedFields, previous });
  const changedData = Object.fromEntries(
    changedFields.filter((f) => f.startsWith('data.')).map((f) => [f.slice(5), data[f.slice(5)] ?? null]),
  );
  const refused = await linkWrittenValues(tx, actor, [
    { recordId: row!.id, folder, values: oneValuesIn(folder, changedData) },
  ]);
  if (refused) throw refused;
  return { row: row!, changedFields, previous };
}

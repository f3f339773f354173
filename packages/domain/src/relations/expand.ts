import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { FolderRow } from '../folders/serialize.ts';
import type { RecordOutput } from '../records/schemas.ts';
import { recordColumnsOf, recordRowFromDriver, serializeRecord } from '../records/serialize.ts';
import type { Actor } from '../shared/actor.ts';
import { invalid } from '../shared/errors.ts';
import { oneFieldsOf } from './relation-fields.ts';

/** Most fields one `expand` names. */
export const MAX_EXPAND = 5;

/** `expand=<key>[,<key>]`: ONE fields whose records to add under `expanded` (docs/api.md, "Relations"). */
export const expandParam = () =>
  z
    .string()
    .max(400)
    .meta({
      description: `ONE relation fields whose linked records to add under \`expanded\`, comma-separated (at most ${MAX_EXPAND}, one level deep).`,
      example: 'company',
    });

/** The keys `expand` names, once each; a 400 naming `expand` beyond MAX_EXPAND. */
export function expandKeys(expand: string | undefined): string[] {
  if (expand === undefined) return [];
  const keys = [...new Set(expand.split(',').map((k) => k.trim()))].filter((k) => k !== '');
  if (keys.length > MAX_EXPAND) throw invalid('expand', `names ${keys.length} fields; at most ${MAX_EXPAND}`);
  return keys;
}

/**
 * Adds `expanded` to records: for each key, the live record its ONE value links to, or null
 * (no value, or a record in Trash), read in one statement for all of them. Each key must be a
 * ONE relation field of one of `folders` (the record's folder, the list's, or, for a list of
 * every folder, the workspace's): otherwise a 400 naming `expand`. Records of a folder without
 * the field get null.
 */
export async function expandRecords<T extends RecordOutput>(
  db: Executor,
  actor: Actor,
  records: T[],
  keys: string[],
  folders: Pick<FolderRow, 'id' | 'fields'>[],
): Promise<T[]> {
  if (keys.length === 0) return records;
  const ones = folders.map((f) => ({ id: f.id, fields: oneFieldsOf(f) }));
  for (const key of keys) {
    if (ones.some((f) => f.fields.has(key))) continue;
    throw invalid(
      'expand',
      `${key} is not a ONE relation field of ${folders.length === 1 ? 'this folder' : 'any folder'}; a MANY field is read with GET /records/{id}/related/{field}`,
    );
  }
  const fieldsOf = new Map(ones.map((f) => [f.id, f.fields]));
  const wanted = new Set<string>();
  for (const record of records) {
    for (const key of keys) {
      const value = record.data[key];
      if (fieldsOf.get(record.folderId)?.has(key) && typeof value === 'string') wanted.add(value);
    }
  }
  const found = new Map<string, RecordOutput>();
  if (wanted.size > 0) {
    const { rows } = await db.execute(sql`
      select ${recordColumnsOf('records')} from records
       where workspace_id = ${actor.workspaceId} and id in ${[...wanted]} and trashed_at is null`);
    for (const raw of rows) {
      const record = serializeRecord(recordRowFromDriver(raw));
      found.set(record.id, record);
    }
  }
  return records.map((record) => {
    const expanded: Record<string, RecordOutput | null> = {};
    for (const key of keys) {
      const value = record.data[key];
      expanded[key] =
        fieldsOf.get(record.folderId)?.has(key) && typeof value === 'string'
          ? (found.get(value) ?? null)
          : null;
    }
    return { ...record, expanded };
  });
}

/** The folders of the workspace, with their fields (for a list of every folder). */
export function workspaceFolders(db: Executor, actor: Actor) {
  return db
    .select({ id: schema.folders.id, fields: schema.folders.fields })
    .from(schema.folders)
    .where(eq(schema.folders.workspaceId, actor.workspaceId));
}

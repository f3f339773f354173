import type { Database, Executor } from '@crm/db';
import { namedStatement, runNamed, schema } from '@crm/db';
import { eq, sql } from 'drizzle-orm';
import { oneFieldsOf } from '../folders/relation-fields.ts';
import type { FolderRow } from '../folders/serialize.ts';
import { MAX_EXPAND, type RecordOutput } from '../record-model/schemas.ts';
import {
  type RecordRow,
  recordColumnsOf,
  recordColumnsText,
  recordRowFromDriver,
  serializeRecord,
} from '../record-model/serialize.ts';
import { type Actor, reachesFolder } from '../shared/actor.ts';
import { invalid } from '../shared/errors.ts';
import { missing } from '../shared/missing.ts';

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
  const fieldsOf = expandableFields(keys, folders);
  const wanted = new Set<string>();
  for (const record of records) {
    for (const key of keys) {
      const value = record.data[key];
      if (fieldsOf.get(record.folderId)?.has(key) && typeof value === 'string') wanted.add(value);
    }
  }
  const found = new Map<string, RecordOutput>();
  if (wanted.size > 0) {
    // By the primary key alone, trashed or not (a trashed one is none): see loadInWorkspace.
    const { rows } = await db.execute(sql`
      select ${recordColumnsOf('records')} from records
       where workspace_id = ${actor.workspaceId} and id in ${[...wanted]}`);
    for (const raw of rows) {
      const row = recordRowFromDriver(raw);
      if (row.trashedAt === null && reachesFolder(actor, row.folderId))
        found.set(row.id, serializeRecord(row));
    }
  }
  return withExpanded(records, keys, fieldsOf, found);
}

/**
 * The ONE relation fields of each folder, once every key was found to be one in some folder
 * (otherwise a 400 naming `expand`).
 */
function expandableFields(keys: string[], folders: Pick<FolderRow, 'id' | 'fields'>[]) {
  const ones = folders.map((f) => ({ id: f.id, fields: oneFieldsOf(f) }));
  for (const key of keys) {
    if (ones.some((f) => f.fields.has(key))) continue;
    throw invalid(
      'expand',
      `${key} is not a ONE relation field of ${folders.length === 1 ? 'this folder' : 'any folder'}; a MANY field is read with GET /records/{id}/related/{field}`,
    );
  }
  return new Map(ones.map((f) => [f.id, f.fields]));
}

/**
 * One live record and the live records its values under `keys` name, in one statement: the
 * record first (`part` 0), then the others (`part` 1), whatever the keys turn out to be (the
 * caller checks them against the record's folder). Null when the record is not a live record
 * of the workspace.
 */
export async function readRecordExpanded(
  db: Database,
  actor: Actor,
  id: string,
  keys: string[],
): Promise<{ row: RecordRow; linked: Map<string, RecordOutput> } | null> {
  // A named statement, like the plain read of a record: planned once per connection (a
  // statement on records weighs its many indexes and statistics at every planning).
  const rows = await runNamed(db, READ_EXPANDED, [actor.workspaceId, id, JSON.stringify(keys)]);
  let row: RecordRow | undefined;
  const linked = new Map<string, RecordOutput>();
  for (const raw of rows) {
    const read = recordRowFromDriver(raw);
    // Found by id alone, trashed or not (READ_EXPANDED): a trashed record is none.
    if (read.trashedAt !== null) continue;
    if (raw.part === 0) row = read;
    // A record of a folder the caller does not reach is shown as none (docs/api.md, "Scopes").
    else if (reachesFolder(actor, read.folderId)) linked.set(read.id, serializeRecord(read));
  }
  return row ? { row, linked } : null;
}

const READ_EXPANDED = namedStatement(
  'get_live_record_expanded',
  `
  select 0 as part, ${recordColumnsText('r')} from records r
   where r.workspace_id = $1 and r.id = $2
  union all
  select 1 as part, ${recordColumnsText('x')} from records r
   cross join lateral jsonb_array_elements_text($3::jsonb) as k(key)
    join records x on x.workspace_id = $1 and x.id = r.data ->> k.key
   where r.workspace_id = $1 and r.id = $2`,
);

/** `record` with `expanded`, its linked records taken from `linked` (read with it). */
export function expandRecord<T extends RecordOutput>(
  record: T,
  keys: string[],
  folder: Pick<FolderRow, 'id' | 'fields'>,
  linked: Map<string, RecordOutput>,
): T & { expanded: Record<string, RecordOutput | null> } {
  return (
    withExpanded([record], keys, expandableFields(keys, [folder]), linked)[0] ??
    missing('withExpanded([record], keys, expandableFields(keys, [folder]), linked)[0]')
  );
}

function withExpanded<T extends RecordOutput>(
  records: T[],
  keys: string[],
  fieldsOf: Map<string, Map<string, unknown>>,
  found: Map<string, RecordOutput>,
) {
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
export async function workspaceFolders(db: Executor, actor: Actor) {
  const folders = await db
    .select({ id: schema.folders.id, fields: schema.folders.fields })
    .from(schema.folders)
    .where(eq(schema.folders.workspaceId, actor.workspaceId));
  return folders.filter((f) => reachesFolder(actor, f.id));
}

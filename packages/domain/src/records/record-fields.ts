import { recordColumns as tableColumns } from '@crm/constants';
import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import type { FieldDefinition } from '@crm/db/schema';
import { eq } from 'drizzle-orm';
import type { FolderRow } from '../folders/serialize.ts';
import type { Actor } from '../shared/actor.ts';
import { invalid } from '../shared/errors.ts';
import { columnField, customField, type ListField } from '../shared/list-fields.ts';
import type { FieldTable } from '../shared/list-query.ts';

const r = schema.records;

// Each column's kind is the one the records table's filter form offers (`@crm/constants`).
const COLUMNS: Record<string, ListField> = {
  title: columnField(r.title, 'title', tableColumns.title),
  email: columnField(r.email, 'email', tableColumns.email),
  phone: columnField(r.phone, 'phone', tableColumns.phone),
  ownerId: columnField(r.ownerId, 'ownerId', tableColumns.ownerId),
  createdAt: columnField(r.createdAt, 'createdAt', tableColumns.createdAt),
  updatedAt: columnField(r.updatedAt, 'updatedAt', tableColumns.updatedAt),
};

const SORTABLE = new Set(['createdAt', 'updatedAt', 'title']);

/**
 * The fields records filter and sort on: the columns above and `data.<key>` for a custom
 * field. With `folderId` a key means that folder's field. Without it, the key must have one
 * type in every folder of the workspace that has it (otherwise 400: give `folderId`), and a
 * SELECT value may be an option of any of them.
 */
export async function recordFields(
  db: Executor,
  actor: Actor,
  folder: FolderRow | null,
  filterNames: string[],
  sortName: string,
): Promise<{ table: FieldTable; sortable: (name: string) => ListField | undefined }> {
  const customKey = (name: string) => (name.startsWith('data.') ? [name.slice(5)] : []);
  const keys = [...new Set(filterNames.flatMap(customKey))];
  // A sort by a field no filter names is refused as a bad `sort`, which is what the client sent.
  const sortKey = customKey(sortName)[0];
  const sortOnly = sortKey !== undefined && !keys.includes(sortKey) ? sortKey : undefined;
  const custom = new Map<string, ListField>();
  if (keys.length > 0 || sortOnly !== undefined) {
    const folders = folder
      ? [folder]
      : await db
          .select({ name: schema.folders.name, fields: schema.folders.fields })
          .from(schema.folders)
          .where(eq(schema.folders.workspaceId, actor.workspaceId));
    for (const key of keys) {
      custom.set(`data.${key}`, customField(r.data, definitionOf(key, folders, folder !== null)));
    }
    if (sortOnly !== undefined) {
      custom.set(
        `data.${sortOnly}`,
        customField(r.data, definitionOf(sortOnly, folders, folder !== null, 'sort')),
      );
    }
  }
  const fieldOf = (name: string) => COLUMNS[name] ?? custom.get(name);
  return {
    table: { fieldOf, known: 'title, email, phone, ownerId, createdAt, updatedAt or data.<key>' },
    sortable: (name) => (SORTABLE.has(name) || name.startsWith('data.') ? fieldOf(name) : undefined),
  };
}

function definitionOf(
  key: string,
  folders: { name: string; fields: FieldDefinition[] }[],
  inFolder: boolean,
  /** What a refusal names: the field itself (a filter), or `sort`. */
  path?: 'sort',
): FieldDefinition {
  const found = folders.flatMap((f) =>
    f.fields.filter((d) => d.key === key).map((d) => ({ folder: f.name, definition: d })),
  );
  const first = found[0];
  const refuse = (problem: string) =>
    path === 'sort'
      ? invalid('sort', `cannot sort by data.${key}: it ${problem}`)
      : invalid(`data.${key}`, problem);
  if (!first) throw refuse(`is not a field of ${inFolder ? 'this folder' : 'any folder of the workspace'}`);
  const types = [...new Set(found.map((f) => f.definition.type))];
  if (types.length > 1) {
    const which = found.map((f) => `${f.definition.type} in ${f.folder}`).join(', ');
    throw refuse(`has different types in different folders (${which}); give folderId`);
  }
  const options = [...new Set(found.flatMap((f) => f.definition.options ?? []))];
  return options.length > 0 ? { ...first.definition, options } : first.definition;
}

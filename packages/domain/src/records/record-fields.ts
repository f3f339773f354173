import { recordColumns as tableColumns } from '@crm/constants';
import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import type { FieldDefinition } from '@crm/db/schema';
import { eq } from 'drizzle-orm';
import { loadFolder } from '../folders/load-folder.ts';
import { isRelation, relationFieldOf } from '../folders/relation-fields.ts';
import type { FolderRow } from '../folders/serialize.ts';
import { hopField, linked, linkedToField } from '../relations/relation-filters.ts';
import type { Actor } from '../shared/actor.ts';
import { invalid } from '../shared/errors.ts';
import { columnField, customField, type ListField } from '../shared/list-fields.ts';
import type { FieldTable } from '../shared/list-query.ts';

const r = schema.records;

/** The records table's own columns as list fields, on `records` or on an alias of it. */
function columnsOf(table: typeof r | typeof linked): Record<string, ListField> {
  // Each column's kind is the one the records table's filter form offers (`@crm/constants`).
  return {
    title: columnField(table.title, 'title', tableColumns.title),
    email: columnField(table.email, 'email', tableColumns.email),
    phone: columnField(table.phone, 'phone', tableColumns.phone),
    ownerId: columnField(table.ownerId, 'ownerId', tableColumns.ownerId),
    createdAt: columnField(table.createdAt, 'createdAt', tableColumns.createdAt),
    updatedAt: columnField(table.updatedAt, 'updatedAt', tableColumns.updatedAt),
  };
}

const COLUMNS = columnsOf(r);
const SORTABLE = new Set(['createdAt', 'updatedAt', 'title']);
const KNOWN =
  'title, email, phone, ownerId, createdAt, updatedAt, data.<key>, <relation> or <relation>.<field>';

type FolderFields = { id?: string; name: string; fields: FieldDefinition[] };

/**
 * The fields records filter and sort on: the columns above and `data.<key>` for a custom
 * field. With `folderId` a key means that folder's field. Without it, the key must have one
 * type in every folder of the workspace that has it (otherwise 400: give `folderId`), and a
 * SELECT value may be an option of any of them. A RELATION field filters as `<key>` (or
 * `data.<key>`): records linked to a record; and `<key>.<field>` is a field of the linked
 * record (docs/api.md, "Relations"). Relations cannot be sorted on.
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
  // Names that may be relations: `<key>` and `<key>.<field>`, the key not a column.
  const relationNames = filterNames.filter((n) => !COLUMNS[n] && !n.startsWith('data.'));
  // A sort by a field no filter names is refused as a bad `sort`, which is what the client sent.
  const sortKey = customKey(sortName)[0];
  const sortOnly = sortKey !== undefined && !keys.includes(sortKey) ? sortKey : undefined;
  const custom = new Map<string, ListField>();
  if (keys.length > 0 || sortOnly !== undefined || relationNames.length > 0) {
    const folders: FolderFields[] = folder
      ? [folder]
      : await db
          .select({ id: schema.folders.id, name: schema.folders.name, fields: schema.folders.fields })
          .from(schema.folders)
          .where(eq(schema.folders.workspaceId, actor.workspaceId));
    const targets = new Map<string, Promise<FolderRow>>();
    const relationOf = (name: string, key: string) => relationIn(key, folders, name);
    for (const key of keys) {
      const relation = relationOf(`data.${key}`, key);
      custom.set(
        `data.${key}`,
        relation
          ? linkedToField(actor.workspaceId, relation)
          : customField(r.data, definitionOf(key, folders, folder !== null)),
      );
    }
    for (const name of relationNames) {
      const dot = name.indexOf('.');
      const key = dot < 0 ? name : name.slice(0, dot);
      const relation = relationOf(name, key);
      if (!relation) continue;
      if (dot < 0) {
        custom.set(name, linkedToField(actor.workspaceId, relation));
        continue;
      }
      const rest = name.slice(dot + 1);
      let target: ListField | undefined = columnsOf(linked)[rest];
      if (!target && rest.startsWith('data.')) {
        const targetId = relation.relation.folderId;
        let loading = targets.get(targetId);
        if (!loading) {
          loading = loadFolder(db, actor, targetId);
          targets.set(targetId, loading);
        }
        const targetFolder = await loading;
        const definition = targetFolder.fields.find((f) => f.key === rest.slice(5));
        if (!definition)
          throw invalid(`filter[${name}]`, `${rest} is not a field of folder ${targetFolder.name}`);
        if (definition.type === 'RELATION') {
          throw invalid(`filter[${name}]`, 'a filter crosses one relation, not two');
        }
        // Without the `data ? '<key>'` of the field's own index: the planner would count it
        // apart from the condition, expect a few linked records where there are thousands, and
        // start from them (docs/api.md, "Relations").
        const { present: _present, ...withoutPresent } = customField(linked.data, definition);
        target = withoutPresent;
      }
      if (!target) {
        throw invalid(
          `filter[${name}]`,
          `${rest} is not a field of the linked record; use title, email, phone, ownerId, createdAt, updatedAt or data.<key>`,
        );
      }
      custom.set(name, hopField(actor.workspaceId, relation, target));
    }
    if (sortOnly !== undefined) {
      if (relationOf('sort', sortOnly))
        throw invalid('sort', `cannot sort by data.${sortOnly}: it is a relation`);
      custom.set(
        `data.${sortOnly}`,
        customField(r.data, definitionOf(sortOnly, folders, folder !== null, 'sort')),
      );
    }
  }
  const fieldOf = (name: string) => COLUMNS[name] ?? custom.get(name);
  return {
    table: { fieldOf, known: KNOWN },
    sortable: (name) => {
      if (!SORTABLE.has(name) && !name.startsWith('data.')) return undefined;
      const field = fieldOf(name);
      return field?.condition ? undefined : field;
    },
  };
}

/**
 * The RELATION field `key`, if it is one: in the list's folder, or without one in the one
 * folder of the workspace that has it as a RELATION field (several: 400, give folderId). A
 * key that is a field of another type is no relation (undefined); a name that is no field at
 * all is left for the caller to refuse.
 */
function relationIn(key: string, folders: FolderFields[], name: string) {
  const found = folders.flatMap((f) =>
    f.fields.filter((d) => d.key === key && isRelation(d)).map((d) => ({ folder: f, definition: d })),
  );
  if (found.length === 0) return undefined;
  if (found.length > 1) {
    throw invalid(
      name === 'sort' ? 'sort' : `filter[${name}]`,
      `${key} is a relation of ${found.map((f) => f.folder.name).join(', ')}; give folderId`,
    );
  }
  const [{ folder, definition }] = found as [(typeof found)[number]];
  return relationFieldOf({ id: folder.id ?? '', name: folder.name, fields: folder.fields }, definition.key);
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

import { recordColumns, savedViewLimits } from '@crm/constants';
import type { Database, Executor } from '@crm/db';
import { schema } from '@crm/db';
import type { SavedViewDefinition } from '@crm/db/schema';
import { and, asc, count, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { loadFolder } from '../folders/load-folder.ts';
import type { FolderRow } from '../folders/serialize.ts';
import { recordFields } from '../records/record-fields.ts';
import type { Actor } from '../shared/actor.ts';
import { sqlStateOf } from '../shared/data-refusal.ts';
import { DomainError, type ErrorDetail, invalid, invalidReference, notFound } from '../shared/errors.ts';
import { isId, newId } from '../shared/ids.ts';
import { FILTER_OPS, type FilterLeaf, type FilterTree } from '../shared/list-filter.ts';
import { filterSql } from '../shared/list-query.ts';
import { parseSort } from '../shared/list-sort.ts';
import { missing } from '../shared/missing.ts';
import { FIELD_KEY, idParam, instantOutput, nonBlankText } from '../shared/schemas.ts';

/**
 * Saved views of the records table (docs/web-app.md, "Saved views"): a signed-in user's named
 * columns, sort and filters for one folder. Only their owner lists, changes or deletes them;
 * another user's view, or one of another workspace, is not found.
 */

const v = schema.savedViews;

/** A filter of a view: one condition of the list's query string, `filter[<field>][<op>]=<value>`. */
const viewFilter = z.strictObject({
  field: z.string().max(200),
  op: z.enum(FILTER_OPS),
  value: z
    .string()
    .max(10_000)
    .meta({ description: 'As the query string carries it: `in` comma-separated, `empty` true or false.' }),
});

export const savedViewDefinition = z
  .strictObject({
    columns: z
      .array(z.string().max(200))
      .min(1, 'must show at least one column')
      .max(savedViewLimits.columns, `must hold at most ${savedViewLimits.columns} columns`)
      .meta({ description: `Shown in this order: ${Object.keys(recordColumns).join(', ')} or data.<key>.` }),
    sort: z.string().max(200).nullable().meta({
      description: 'As the list takes it (`title`, `-updatedAt`, `data.score`); null for newest first.',
    }),
    filters: z
      .array(viewFilter)
      .max(savedViewLimits.filters, `must hold at most ${savedViewLimits.filters} filters`)
      .meta({ description: 'ANDed, each as the list query string takes it.' }),
  })
  .meta({ id: 'SavedViewDefinition' });

export const savedViewOutput = z
  .object({
    id: z.string(),
    folderId: z.string(),
    name: z.string(),
    definition: savedViewDefinition,
    createdAt: instantOutput(),
    updatedAt: instantOutput(),
  })
  .meta({ id: 'SavedView' });

export type SavedViewOutput = z.infer<typeof savedViewOutput>;

const viewName = nonBlankText(savedViewLimits.name);

export const findSavedViewsInput = z.strictObject({ folderId: z.string().max(200) });
export const createSavedViewInput = z.strictObject({
  folderId: z.string().max(200),
  name: viewName,
  definition: savedViewDefinition,
});
export const updateSavedViewInput = z.strictObject({
  id: idParam('Saved view id'),
  name: viewName.optional(),
  definition: savedViewDefinition.optional(),
});
export const savedViewIdInput = z.strictObject({ id: idParam('Saved view id') });

type Row = typeof v.$inferSelect;

function serialize(row: Row): SavedViewOutput {
  return {
    id: row.id,
    folderId: row.folderId,
    name: row.name,
    definition: {
      columns: [...row.definition.columns],
      sort: row.definition.sort,
      filters: row.definition.filters.map((f) => ({
        field: f.field,
        op: f.op as z.infer<typeof viewFilter>['op'],
        value: f.value,
      })),
    },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The caller's views of a folder, by name. */
export async function findSavedViews(
  db: Database,
  actor: Actor,
  input: z.infer<typeof findSavedViewsInput>,
): Promise<SavedViewOutput[]> {
  await loadFolder(db, actor, input.folderId).catch(
    invalidReference('folderId', 'is not a folder of this workspace'),
  );
  const rows = await db
    .select()
    .from(v)
    .where(
      and(eq(v.workspaceId, actor.workspaceId), eq(v.userId, actor.userId), eq(v.folderId, input.folderId)),
    )
    .orderBy(asc(sql`lower(${v.name})`), asc(v.id));
  return rows.map(serialize);
}

export async function createSavedView(
  db: Database,
  actor: Actor,
  input: z.infer<typeof createSavedViewInput>,
): Promise<SavedViewOutput> {
  return db.transaction(async (tx) => {
    const folder = await loadFolder(tx, actor, input.folderId).catch(
      invalidReference('folderId', 'is not a folder of this workspace'),
    );
    const definition = await checkDefinition(tx, actor, folder, input.definition);
    const [{ held } = { held: 0 }] = await tx
      .select({ held: count() })
      .from(v)
      .where(and(eq(v.workspaceId, actor.workspaceId), eq(v.userId, actor.userId)));
    if (held >= savedViewLimits.perUser) {
      throw invalid('name', `you have ${held} saved views, the most one person may keep; delete one first`);
    }
    const [row] = await sameName(input.name, () =>
      tx
        .insert(v)
        .values({
          workspaceId: actor.workspaceId,
          id: newId('view'),
          userId: actor.userId,
          folderId: folder.id,
          name: input.name,
          definition,
        })
        .returning(),
    );
    if (!row) missing('the row insert … returning wrote (row)');
    return serialize(row);
  });
}

export async function updateSavedView(
  db: Database,
  actor: Actor,
  input: z.infer<typeof updateSavedViewInput>,
): Promise<SavedViewOutput> {
  return db.transaction(async (tx) => {
    const current = await loadOwnView(tx, actor, input.id, true);
    const changes: Partial<Pick<Row, 'name' | 'definition'>> = {};
    if (input.name !== undefined) changes.name = input.name;
    if (input.definition !== undefined) {
      const folder = await loadFolder(tx, actor, current.folderId);
      changes.definition = await checkDefinition(tx, actor, folder, input.definition);
    }
    if (Object.keys(changes).length === 0) return serialize(current);
    const [row] = await sameName(input.name ?? current.name, () =>
      tx
        .update(v)
        .set({ ...changes, updatedAt: sql`now()` })
        .where(and(eq(v.workspaceId, actor.workspaceId), eq(v.id, current.id)))
        .returning(),
    );
    if (!row) missing('the row update … returning wrote (row)');
    return serialize(row);
  });
}

export async function deleteSavedView(
  db: Database,
  actor: Actor,
  id: string,
): Promise<{ id: string; deleted: true }> {
  const current = await loadOwnView(db, actor, id, false);
  await db.delete(v).where(and(eq(v.workspaceId, actor.workspaceId), eq(v.id, current.id)));
  return { id: current.id, deleted: true };
}

/** The caller's own view: another user's, another workspace's or a malformed id is not found. */
async function loadOwnView(db: Executor, actor: Actor, id: string, lock: boolean): Promise<Row> {
  if (!isId('view', id)) throw notFound('Saved view', id);
  const query = db
    .select()
    .from(v)
    .where(and(eq(v.workspaceId, actor.workspaceId), eq(v.id, id), eq(v.userId, actor.userId)));
  const [row] = await (lock ? query.for('update') : query);
  if (!row) throw notFound('Saved view', id);
  return row;
}

/** A second view of the same name (any letter case) for the same user and folder is a 409. */
async function sameName<T>(name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (sqlStateOf(error) === '23505') {
      throw new DomainError('CONFLICT', `You already have a view named “${name}” for this folder`, {
        details: [{ path: 'name', message: 'is already the name of one of your views of this folder' }],
      });
    }
    throw error;
  }
}

/**
 * Checks a definition against the folder as the records list would: every column is one of
 * the table's columns or a field of the folder, shown once; the sort is one the list takes;
 * each filter names a field it filters on, with an operator of the field's type and a value
 * of that type, exactly as `filter[<field>][<op>]=<value>` would be judged (docs/api.md,
 * "Filters, sorts and counts"). Every problem is named by its path under `definition`.
 */
async function checkDefinition(
  db: Executor,
  actor: Actor,
  folder: FolderRow,
  definition: z.infer<typeof savedViewDefinition>,
): Promise<SavedViewDefinition> {
  const details: ErrorDetail[] = [];
  const fieldKeys = new Set(folder.fields.map((f) => f.key));
  const seen = new Set<string>();
  definition.columns.forEach((column, i) => {
    const path = `definition.columns.${i}`;
    if (seen.has(column)) details.push({ path, message: `shows ${column} twice` });
    seen.add(column);
    const known =
      Object.hasOwn(recordColumns, column) ||
      (column.startsWith('data.') && FIELD_KEY.test(column.slice(5)) && fieldKeys.has(column.slice(5)));
    if (!known) {
      details.push({
        path,
        message: `${column} is not a column of this folder; use ${Object.keys(recordColumns).join(', ')} or data.<key> of one of its fields`,
      });
    }
  });
  const pairs = new Set<string>();
  const leaves: FilterLeaf[] = definition.filters.map((f, i) => {
    const path = `definition.filters.${i}`;
    const pair = `${f.field} ${f.op}`;
    if (pairs.has(pair)) details.push({ path, message: `repeats ${pair}: a field takes each operator once` });
    pairs.add(pair);
    return { kind: 'leaf', field: f.field, op: f.op, value: f.value, path, fromQuery: true };
  });
  const sortName = definition.sort ?? '-createdAt';
  // Custom keys the folder has not are refused below, by the filter that names them.
  const filterNames = leaves
    .map((l) => l.field)
    .filter((name) => !name.startsWith('data.') || fieldKeys.has(name.slice(5)));
  const sortable = async () => {
    try {
      // Refuses (naming `sort`) a custom key that is not a field of the folder.
      const found = await recordFields(db, actor, folder, filterNames, sortName.replace(/^-/, ''));
      parseSort(sortName, found.sortable, 'createdAt, updatedAt, title or data.<key>');
      return found;
    } catch (error) {
      collect(error, details, 'definition.sort');
      return recordFields(db, actor, folder, filterNames, 'createdAt');
    }
  };
  const fields = await sortable();
  for (const leaf of leaves) {
    const field = fields.table.fieldOf(leaf.field);
    if (!field) {
      details.push({
        path: `${leaf.path}.field`,
        message: `${leaf.field} is not a field to filter on; use ${Object.keys(recordColumns).join(', ')} or data.<key> of a field of this folder`,
      });
      continue;
    }
    try {
      // Builds the condition's SQL, which judges the operator and the value as the list does.
      filterSql(leaf as FilterTree, fields.table);
    } catch (error) {
      collect(error, details);
    }
  }
  if (details.length > 0) {
    const message = details.map((d) => `${d.path}: ${d.message}`).join('; ');
    throw new DomainError('VALIDATION_FAILED', `Invalid view: ${message}`, { details: details.slice(0, 10) });
  }
  return {
    columns: [...definition.columns],
    sort: definition.sort,
    filters: definition.filters.map((f) => ({ field: f.field, op: f.op, value: f.value })),
  };
}

/** Adds a validation error's details (renamed to `path` when given); anything else is thrown again. */
function collect(error: unknown, details: ErrorDetail[], path?: string): void {
  if (!(error instanceof DomainError) || error.code !== 'VALIDATION_FAILED') throw error;
  for (const detail of error.details ?? [{ path: path ?? 'definition', message: error.message }]) {
    details.push({ path: path ?? detail.path, message: detail.message });
  }
}

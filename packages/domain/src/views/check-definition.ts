import { recordColumns } from '@crm/constants';
import type { Executor } from '@crm/db';
import type { SavedViewDefinition } from '@crm/db/schema';
import type { z } from 'zod';
import type { FolderRow } from '../folders/serialize.ts';
import { recordFields } from '../records/record-fields.ts';
import type { Actor } from '../shared/actor.ts';
import { DomainError, type ErrorDetail } from '../shared/errors.ts';
import type { FilterLeaf, FilterTree } from '../shared/list-filter.ts';
import { filterSql } from '../shared/list-query.ts';
import { parseSort } from '../shared/list-sort.ts';
import { FIELD_KEY } from '../shared/schemas.ts';
import type { savedViewDefinition } from './schemas.ts';

/**
 * Checks a definition against the folder as the records list would: every column is one of
 * the table's columns or a field of the folder, shown once; the sort is one the list takes;
 * each filter names a field it filters on, with an operator of the field's type and a value
 * of that type, exactly as `filter[<field>][<op>]=<value>` would be judged (docs/api.md,
 * "Filters, sorts and counts"). Every problem is named by its path under `definition`.
 */
export async function checkDefinition(
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

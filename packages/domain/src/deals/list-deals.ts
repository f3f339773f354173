import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { eq, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Actor } from '../shared/actor.ts';
import { invalid } from '../shared/errors.ts';
import { columnField, jsonField, type ListField } from '../shared/list-fields.ts';
import { canonicalTree, treeFromParam } from '../shared/list-filter.ts';
import { checkFilterFields, countModeOf, type FieldTable, findListPage } from '../shared/list-query.ts';
import { fingerprint, parseSort } from '../shared/list-sort.ts';
import type { findDealsInput } from './schemas.ts';
import { serializeDeal } from './serialize.ts';
import { loadPipeline } from './stages.ts';

const d = schema.deals;
const DEFAULT_SORT = '-createdAt';

const COLUMNS: Record<string, ListField> = {
  title: columnField(d.title, 'title', 'text'),
  amount: columnField(d.amount, 'amount', 'number'),
  currency: columnField(d.currency, 'currency', 'id'),
  closeDate: columnField(d.closeDate, 'closeDate', 'date'),
  stageId: columnField(d.stageId, 'stageId', 'id'),
  recordId: columnField(d.recordId, 'recordId', 'id'),
  createdAt: columnField(d.createdAt, 'createdAt', 'instant'),
  updatedAt: columnField(d.updatedAt, 'updatedAt', 'instant'),
};
const SORTABLE = new Set(['createdAt', 'updatedAt', 'title', 'amount', 'closeDate']);

/** Deals' `data` is free JSON: any key, compared as JSON (list-fields.ts, `jsonField`). */
function dealField(name: string): ListField | undefined {
  if (name.startsWith('data.') && name.length > 5) return jsonField(d.data, name.slice(5));
  return COLUMNS[name];
}

const fields: FieldTable = {
  fieldOf: dealField,
  known: 'title, amount, currency, closeDate, stageId, recordId, createdAt, updatedAt or data.<key>',
};

/**
 * A page of deals as the deal list pages them (`GET /deals`, `GET /records/{id}/deals`): its
 * field table, sorts and filters, in one pipeline when `pipelineId` is given, and within
 * `linked` when the list is of what links a record.
 */
export async function listDeals(
  db: Database,
  actor: Actor,
  input: Omit<z.infer<typeof findDealsInput>, 'pipelineId'> & { pipelineId?: string | undefined },
  linked?: { scope: SQL; print: unknown[] },
) {
  const filter = treeFromParam(input.filter);
  checkFilterFields(filter, fields);
  const sortName = input.sort ?? DEFAULT_SORT;
  const sort = parseSort(
    sortName,
    (name) => (SORTABLE.has(name) || name.startsWith('data.') ? dealField(name) : undefined),
    'createdAt, updatedAt, title, amount, closeDate or data.<key>',
  );
  const scope: (SQL | undefined)[] = [eq(d.workspaceId, actor.workspaceId), linked?.scope];
  if (input.pipelineId !== undefined) {
    const { stages } = await loadPipeline(db, actor, input.pipelineId);
    scope.push(eq(d.pipelineId, input.pipelineId));
    if (input.stageId !== undefined && !stages.some((s) => s.id === input.stageId)) {
      throw invalid('stageId', `${input.stageId} is not a stage of this pipeline`);
    }
  }
  if (input.stageId !== undefined) scope.push(eq(d.stageId, input.stageId));
  if (input.recordId !== undefined) scope.push(eq(d.recordId, input.recordId));
  const print = fingerprint([
    ...(linked?.print ?? []),
    'deals',
    sortName,
    canonicalTree(filter),
    input.pipelineId ?? null,
    input.stageId ?? null,
    input.recordId ?? null,
  ]);
  return findListPage(db, {
    table: d,
    id: d.id,
    scope,
    fields,
    request: {
      filter,
      sort,
      legacy: sortName === DEFAULT_SORT && filter === undefined,
      print,
      page: input.page,
      pageSize: input.pageSize,
      cursor: input.cursor,
      count: countModeOf(input.count),
    },
    serialize: serializeDeal,
  });
}

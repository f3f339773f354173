import type { Database } from '@crm/db';
import type { z } from 'zod';
import type { findRecordsInput } from '../record-model/schemas.ts';
import type { Actor } from '../shared/actor.ts';
import { treeFromParam } from '../shared/list-filter.ts';
import { countModeOf } from '../shared/list-query.ts';
import { listRecords } from './list-records.ts';

type FindInput = z.infer<typeof findRecordsInput>;

/**
 * A page of records (docs/api.md, "Paging"), newest first unless sorted, narrowed by the
 * query-string filters (docs/api.md, "Filters, sorts and counts").
 */
export async function findRecords(db: Database, actor: Actor, input: FindInput) {
  const { filter, trashed, count, ...rest } = input;
  return listRecords(db, actor, {
    ...rest,
    trashed: trashed === 'true',
    count: countModeOf(count),
    filter: treeFromParam(filter),
  });
}

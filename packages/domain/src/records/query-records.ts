import type { Database } from '@crm/db';
import type { z } from 'zod';
import type { queryRecordsInput } from '../record-model/schemas.ts';
import type { Actor } from '../shared/actor.ts';
import { treeFromNode } from '../shared/list-filter.ts';
import { listRecords } from './list-records.ts';

type QueryInput = z.infer<typeof queryRecordsInput>;

/** `POST /records/query`: the same list with a JSON filter of `and`, `or` and `not`. */
export async function queryRecords(db: Database, actor: Actor, input: QueryInput) {
  const { filter, ...rest } = input;
  return listRecords(db, actor, { ...rest, filter: treeFromNode(filter) });
}

import type { Database } from '@crm/db';
import type { z } from 'zod';
import type { Actor } from '../shared/actor.ts';
import { listDeals } from './list-deals.ts';
import type { findDealsInput } from './schemas.ts';

/**
 * A page of one pipeline's deals, newest first unless sorted, narrowed by `stageId`, `recordId`
 * and the filters (docs/api.md, "Filters, sorts and counts"); an unknown pipeline is a 404.
 */
export async function findDeals(db: Database, actor: Actor, input: z.infer<typeof findDealsInput>) {
  return listDeals(db, actor, input);
}

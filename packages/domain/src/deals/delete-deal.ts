import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq } from 'drizzle-orm';
import type { Actor } from '../shared/actor.ts';
import { forgetHistory } from '../shared/forget-history.ts';
import { loadDeal } from './load-deal.ts';

/** DELETE is permanent (docs/api.md, "Deals"). */
export async function deleteDeal(db: Database, actor: Actor, id: string) {
  return db.transaction(async (tx) => {
    await loadDeal(tx, actor, id, { forUpdate: true });
    await tx
      .delete(schema.deals)
      .where(and(eq(schema.deals.workspaceId, actor.workspaceId), eq(schema.deals.id, id)));
    await forgetHistory(tx, actor.workspaceId, id);
    return { id, deleted: true as const };
  });
}

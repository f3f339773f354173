import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { z } from 'zod';
import type { Actor } from '../shared/actor.ts';
import { type BatchOutcome, batchList, eachItem, idsOf, lockRowsInOrder } from '../shared/batch.ts';
import { type DealOutput, updateDealInput } from './schemas.ts';
import { updateDeal } from './update-deal.ts';

export const updateDealsInput = z.strictObject({
  items: batchList(updateDealInput).meta({
    description: 'Up to 100 changes, each `{ id, … }` with the body of `PATCH /deals/{id}`.',
  }),
});

/**
 * `PATCH /deals/batch`: each item applied as `updateDeal` applies it (200, with its
 * `deal.updated` and `deal.stage_changed` events), in item order and one transaction; an
 * unknown or other workspace's id is that item's 404.
 */
export async function updateDeals(
  db: Database,
  actor: Actor,
  input: z.output<typeof updateDealsInput>,
): Promise<BatchOutcome<DealOutput>[]> {
  return db.transaction(async (tx) => {
    const ids = idsOf(input.items, (item) => item.id);
    await lockRowsInOrder(tx, schema.deals, 'deal', actor.workspaceId, ids);
    return eachItem(tx, input.items, async (itemDb, item) => ({
      created: false,
      data: await updateDeal(itemDb, actor, item),
    }));
  });
}

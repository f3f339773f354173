import type { Database } from '@crm/db';
import { z } from 'zod';
import type { Actor } from '../shared/actor.ts';
import { type BatchOutcome, batchList, eachItem } from '../shared/batch.ts';
import { createDeal } from './create-deal.ts';
import { createDealInput, type DealOutput } from './schemas.ts';

export const createDealsInput = z.strictObject({
  items: batchList(createDealInput).meta({
    description: 'Up to 100 bodies of `POST /deals`, each created as that call would.',
  }),
});

/** `POST /deals/batch`: each item created as `createDeal` creates it (201), in item order and one transaction. */
export async function createDeals(
  db: Database,
  actor: Actor,
  input: z.output<typeof createDealsInput>,
): Promise<BatchOutcome<DealOutput>[]> {
  return db.transaction((tx) =>
    eachItem(tx, input.items, async (itemDb, item) => ({
      created: true,
      data: await createDeal(itemDb, actor, item),
    })),
  );
}

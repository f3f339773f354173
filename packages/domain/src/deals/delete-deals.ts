import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { z } from 'zod';
import type { Actor } from '../shared/actor.ts';
import { type BatchOutcome, batchList, eachIdLocked } from '../shared/batch.ts';
import { idParam } from '../shared/schemas.ts';
import { deleteDeal } from './delete-deal.ts';

export const deleteDealsInput = z.strictObject({
  ids: batchList(idParam('Deal id')).meta({ description: 'Up to 100 ids of deals to delete permanently.' }),
});

/**
 * `POST /deals/batch/delete`: each deal deleted as `DELETE /deals/{id}` deletes it (200
 * `{ id, deleted: true }`), in one transaction; an unknown or other workspace's id (one
 * deleted by an earlier item included) is that item's 404.
 */
export async function deleteDeals(
  db: Database,
  actor: Actor,
  input: z.output<typeof deleteDealsInput>,
): Promise<BatchOutcome<{ id: string; deleted: true }>[]> {
  return eachIdLocked(db, actor.workspaceId, { table: schema.deals, kind: 'deal' }, input.ids, (itemDb, id) =>
    deleteDeal(itemDb, actor, id),
  );
}

import type { Database } from '@crm/db';
import type { Actor } from '../shared/actor.ts';
import type { BatchOutcome } from '../shared/batch.ts';
import { eachLinkItem, type Item, linkNotFound, type UnlinkItem } from './link-items.ts';

/**
 * Unlinks in a batch (`POST /records/links/batch/delete`), or one (`where: 'path'`, whose
 * field came in the path: an unknown one is a 404).
 */
export function unlinkRecords(
  db: Database,
  actor: Actor,
  items: Item<UnlinkItem>[],
  where: 'path' | 'body' = 'body',
) {
  return eachLinkItem(db, actor, items, {
    where,
    unlinking: true,
    change: (item) => ({ op: 'unlink', relation: item.relation, fromId: item.fromId, toId: item.toId }),
    answer: (
      outcome,
      _item,
      input,
    ): BatchOutcome<{ from: string; field: string; to: string; deleted: true }> =>
      outcome.ok
        ? {
            ok: true,
            created: false,
            data: { from: input.from, field: input.field, to: input.to, deleted: true },
          }
        : { ok: false, error: linkNotFound(input.from, input.field, input.to) },
  });
}

import type { Database } from '@crm/db';
import type { Actor } from '../shared/actor.ts';
import { checkLabel, eachLinkItem, type Item, type LinkItem, linkAnswer } from './link-items.ts';

/**
 * Links in a batch (`POST /records/links/batch`), or one: every item's records found in a few
 * statements, then all links applied together in order (applyLinkChanges). Each item is
 * answered alone.
 */
export function linkRecords(db: Database, actor: Actor, items: Item<LinkItem>[]) {
  return eachLinkItem(db, actor, items, {
    where: 'body',
    change: (item, input) =>
      checkLabel(item.relation, input.label) ?? {
        op: 'link',
        relation: item.relation,
        fromId: item.fromId,
        toId: item.toId,
        ...(input.label !== undefined ? { label: input.label } : {}),
      },
    answer: (outcome, item, input) => linkAnswer(outcome, item, input.from),
  });
}

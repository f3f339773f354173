import { index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt, workspaceId } from './columns.ts';

/**
 * A link between two records through a RELATION field (docs/api.md, "Relations"). A relation
 * is a pair of fields, or one field without an inverse; both fields of a pair carry the same
 * `relationId` in their definition, one as the `from` side and the other as the `to` side, so
 * one row is the link seen from both records. The primary key serves the `from` side (its
 * links, and "is this link there"), `record_links_to_idx` the `to` side; both lead with the
 * workspace, so on a sharded database a link lives on the node of its records.
 *
 * Links of a record in Trash stay, hidden by every read (which joins the live records); the
 * purge removes them with the record (`deleteLinksOf`). No foreign keys to `records`: the
 * domain checks both ends of a new link in its transaction, a record leaves `records` only
 * through that purge, and the keys' checks cost a batch of links a sixth of its database time
 * (docs/decisions/0006-no-foreign-keys-on-the-write-path.md).
 */
export const recordLinks = pgTable(
  'record_links',
  {
    workspaceId: workspaceId(),
    relationId: text().notNull(),
    fromId: text().notNull(),
    toId: text().notNull(),
    /** One of the relation's labels, or null. */
    label: text(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: 'record_links_pkey', columns: [t.workspaceId, t.relationId, t.fromId, t.toId] }),
    // Also counts a record's links on the `to` side (docs/api.md, "Relations", the limit per
    // field), index-only; the `from` side is counted on the primary key. Most batches of links
    // count neither (link-tallies.ts in the domain), so a smaller index kept for counts alone
    // (migration 0016) cost more in every link written than it saved (0021 removes it).
    index('record_links_to_idx').on(t.workspaceId, t.relationId, t.toId, t.fromId),
  ],
);

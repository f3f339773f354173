import { foreignKey, index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt, workspaceId } from './columns.ts';
import { deals } from './deals.ts';
import { records } from './records.ts';

/**
 * The records a deal involves (its participants), each with an optional label ("Decision
 * maker"). The deal's `record_id`, its primary record, is always one of them.
 */
export const dealLinks = pgTable(
  'deal_links',
  {
    workspaceId: workspaceId(),
    dealId: text().notNull(),
    recordId: text().notNull(),
    label: text(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: 'deal_links_pkey', columns: [t.workspaceId, t.dealId, t.recordId] }),
    index('deal_links_record_idx').on(t.workspaceId, t.recordId, t.dealId),
    foreignKey({
      name: 'deal_links_deal_fk',
      columns: [t.workspaceId, t.dealId],
      foreignColumns: [deals.workspaceId, deals.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'deal_links_record_fk',
      columns: [t.workspaceId, t.recordId],
      foreignColumns: [records.workspaceId, records.id],
    }).onDelete('cascade'),
  ],
);

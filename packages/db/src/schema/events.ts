import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { instant, workspaceId } from './columns.ts';

/**
 * What happened in a workspace, written in the same transaction as the change that caused it
 * (docs/webhooks.md, "Event kinds"): a rolled-back change leaves no event, a committed one
 * always has one. The payload is the body receivers get, built when the event happens.
 *
 * No foreign key to `workspaces`: every change writes here, and the key's check would lock the
 * one workspace row in every writing transaction (docs/decisions/0006-no-foreign-keys-on-the-write-path.md).
 */
export const events = pgTable(
  'events',
  {
    workspaceId: workspaceId(),
    id: text().notNull(),
    type: text().notNull(),
    payload: jsonb().$type<Record<string, unknown>>().notNull(),
    occurredAt: instant().notNull(),
  },
  (t) => [
    primaryKey({ name: 'events_pkey', columns: [t.workspaceId, t.id] }),
    index('events_workspace_occurred_idx').on(t.workspaceId, t.occurredAt, t.id),
    // A record's timeline: the events about one record, newest first (docs/api.md, "Record timeline").
    index('events_record_idx')
      .on(
        t.workspaceId,
        sql`(${t.payload} ->> 'recordId')`,
        t.occurredAt.desc().nullsFirst(),
        t.id.desc().nullsFirst(),
      )
      .where(sql`(${t.payload} ->> 'recordId') is not null`),
    // The other side of the links in a timeline: link events name their `from` record as
    // `recordId` (the index above) and the linked one as `to` (docs/api.md, "Relations").
    index('events_link_to_idx')
      .on(
        t.workspaceId,
        sql`(${t.payload} ->> 'to')`,
        t.occurredAt.desc().nullsFirst(),
        t.id.desc().nullsFirst(),
      )
      .where(sql`${t.type} in ('record.linked', 'record.unlinked')`),
  ],
);

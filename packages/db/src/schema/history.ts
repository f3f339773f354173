import { jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { instant, workspaceId } from './columns.ts';

/** What a history entry is about. */
export const historySubjects = ['record', 'deal', 'task'] as const;
export type HistorySubject = (typeof historySubjects)[number];

/**
 * Field history (docs/api.md, "History and provenance"): one row per field a change changed,
 * with its old and new value, who made the change (the actor's type, id and name as they were),
 * through which surface, and in which request. Written by the statement that writes the
 * change's event, so a change and its history commit together; kept as long as its record,
 * deal or task exists (their removal deletes their rows), not the 30 days of events.
 *
 * Values are as the API shows them (null for none). Ids are time-ordered (UUIDv7): a subject's
 * history newest first is its key read backwards.
 *
 * No foreign key to `workspaces`, as for `events` (docs/decisions/0006-no-foreign-keys-on-the-write-path.md).
 */
export const history = pgTable(
  'history',
  {
    workspaceId: workspaceId(),
    subjectId: text().notNull(),
    id: text().notNull(),
    subject: text({ enum: historySubjects }).notNull(),
    field: text().notNull(),
    fromValue: jsonb(),
    toValue: jsonb(),
    actorType: text().notNull(),
    actorId: text().notNull(),
    actorName: text().notNull(),
    source: text().notNull(),
    requestId: text(),
    at: instant().notNull(),
  },
  (t) => [primaryKey({ name: 'history_pkey', columns: [t.workspaceId, t.subjectId, t.id] })],
);

import { foreignKey, index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt, instant, updatedAt, workspaceId } from './columns.ts';
import { records } from './records.ts';
import { users } from './users.ts';

export const callDirections = ['INBOUND', 'OUTBOUND'] as const;
export const callOutcomes = ['CONNECTED', 'NO_ANSWER', 'BUSY', 'VOICEMAIL', 'FAILED'] as const;

export const callLogs = pgTable(
  'call_logs',
  {
    workspaceId: workspaceId(),
    id: text().notNull(),
    recordId: text().notNull(),
    direction: text({ enum: callDirections }).notNull().default('OUTBOUND'),
    outcome: text({ enum: callOutcomes }).notNull().default('CONNECTED'),
    /** Whole seconds. */
    duration: integer(),
    phone: text(),
    notes: text(),
    calledAt: instant().notNull(),
    authorId: text().references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ name: 'call_logs_pkey', columns: [t.workspaceId, t.id] }),
    foreignKey({
      name: 'call_logs_record_fk',
      columns: [t.workspaceId, t.recordId],
      foreignColumns: [records.workspaceId, records.id],
    }).onDelete('cascade'),
    index('call_logs_record_idx').on(t.workspaceId, t.recordId, t.createdAt, t.id),
  ],
);

import type { schema } from '@crm/db';
import type { CallLogOutput } from './schemas.ts';

export type CallLogRow = typeof schema.callLogs.$inferSelect;

export function serializeCallLog(row: CallLogRow): CallLogOutput {
  return {
    id: row.id,
    recordId: row.recordId,
    direction: row.direction,
    outcome: row.outcome,
    duration: row.duration,
    phone: row.phone,
    notes: row.notes,
    calledAt: row.calledAt.toISOString(),
    authorId: row.authorId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

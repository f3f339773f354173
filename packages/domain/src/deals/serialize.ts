import type { schema } from '@crm/db';
import type { DealOutput } from './schemas.ts';

export type DealRow = typeof schema.deals.$inferSelect;

export function serializeDeal(row: DealRow): DealOutput {
  return {
    id: row.id,
    pipelineId: row.pipelineId,
    stageId: row.stageId,
    title: row.title,
    amount: row.amount === null ? null : Number(row.amount),
    currency: row.currency,
    closeDate: row.closeDate,
    data: row.data,
    recordId: row.recordId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

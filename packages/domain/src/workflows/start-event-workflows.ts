import { type Database, isSharded, schema } from '@crm/db';
import { and, eq } from 'drizzle-orm';
import type { RowRef } from '../shared/row-ref.ts';
import { queueRun } from './queue-run.ts';

/**
 * Starts a run of every enabled workflow triggered by the event's kind, with the event as
 * the trigger payload and its record (if any) as the context record. Run by a job the event's
 * own transaction queued; a retried job starts nothing twice (one run per workflow and event).
 */
export async function startEventWorkflows(db: Database, ref: RowRef): Promise<number> {
  const e = schema.events;
  const sharded = await isSharded(db);
  return db.transaction(async (tx) => {
    const [event] = await tx
      .select()
      .from(e)
      .where(ref.workspaceId ? and(eq(e.workspaceId, ref.workspaceId), eq(e.id, ref.id)) : eq(e.id, ref.id));
    if (!event) return 0;
    const w = schema.workflows;
    const flows = await tx
      .select({ id: w.id, actions: w.actions })
      .from(w)
      .where(and(eq(w.workspaceId, event.workspaceId), eq(w.enabled, true), eq(w.triggerType, event.type)));
    const payload = event.payload as Record<string, unknown>;
    const recordId = typeof payload.recordId === 'string' ? payload.recordId : null;
    for (const flow of flows) {
      // A run's failure starts other workflows, never the one that failed.
      if (event.type === 'workflow.run_failed' && payload.workflowId === flow.id) continue;
      await queueRun(
        tx,
        {
          workspaceId: event.workspaceId,
          workflowId: flow.id,
          trigger: 'EVENT',
          input: payload,
          recordId,
          actions: flow.actions,
          eventId: event.id,
        },
        sharded,
      );
    }
    return flows.filter((flow) => !(event.type === 'workflow.run_failed' && payload.workflowId === flow.id))
      .length;
  });
}

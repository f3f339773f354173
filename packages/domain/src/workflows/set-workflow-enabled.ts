import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq, sql } from 'drizzle-orm';
import { audit } from '../audit/append-audit.ts';
import type { Actor } from '../shared/actor.ts';
import { missing } from '../shared/missing.ts';
import type { DomainServices } from '../shared/services.ts';
import { loadWorkflow } from './find-workflows.ts';
import { syncSchedule } from './schedule-workflow.ts';
import { serializeWorkflow } from './serialize.ts';

/** Enables or disables; a disabled workflow's URL answers 404 and its events start nothing. */
export async function setWorkflowEnabled(
  db: Database,
  actor: Actor,
  input: { id: string; enabled: boolean },
  services: Pick<DomainServices, 'baseUrl'>,
) {
  const { id, enabled } = input;
  // Locked, so a delete racing the change is either before it (404) or after it.
  return db.transaction(async (tx) => {
    const current = await loadWorkflow(tx, actor, id, { lock: 'update' });
    const w = schema.workflows;
    const [updated] = await tx
      .update(w)
      .set({ enabled, updatedAt: sql`now()` })
      .where(and(eq(w.workspaceId, actor.workspaceId), eq(w.id, current.id)))
      .returning();
    if (!updated) missing('the row update … returning wrote (updated)');
    const row = { ...updated, nextRunAt: await syncSchedule(tx, updated) };
    if (current.enabled !== enabled) {
      await audit(tx, actor, {
        action: enabled ? 'workflow.enabled' : 'workflow.disabled',
        target: { type: 'workflow', id: current.id },
      });
    }
    return serializeWorkflow(row, services.baseUrl);
  });
}

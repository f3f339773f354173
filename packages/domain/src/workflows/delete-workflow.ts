import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq } from 'drizzle-orm';
import { audit } from '../audit/append-audit.ts';
import type { Actor } from '../shared/actor.ts';
import { loadWorkflow } from './find-workflows.ts';

/** Deletes a workflow and its run history; runs still queued are dropped with it. */
export async function deleteWorkflow(db: Executor, actor: Actor, id: string) {
  return db.transaction(async (tx) => {
    const current = await loadWorkflow(tx, actor, id, { lock: 'update' });
    const w = schema.workflows;
    await tx.delete(w).where(and(eq(w.workspaceId, actor.workspaceId), eq(w.id, current.id)));
    await audit(tx, actor, {
      action: 'workflow.deleted',
      target: { type: 'workflow', id: current.id },
      details: { name: current.name },
    });
    return { id: current.id, deleted: true as const };
  });
}

import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { audit } from '../audit/append-audit.ts';
import type { Actor } from '../shared/actor.ts';
import { assertMembers } from '../shared/assert-member.ts';
import { missing } from '../shared/missing.ts';
import { sealSecret } from '../shared/secret-box.ts';
import type { DomainServices } from '../shared/services.ts';
import { newWebhookSecret } from '../webhooks/secrets.ts';
import { checkActionUrls } from './check-action-urls.ts';
import { loadWorkflow } from './find-workflows.ts';
import { scheduleOf, syncSchedule } from './schedule-workflow.ts';
import type { updateWorkflowInput } from './schemas.ts';
import { serializeWorkflow } from './serialize.ts';

/**
 * Changes what is given. `requireSignature: true` makes a secret when there is none (it is
 * returned, this once); `false` drops it. Runs already queued keep the actions they had.
 */
export async function updateWorkflow(
  db: Executor,
  actor: Actor,
  input: z.infer<typeof updateWorkflowInput>,
  services: DomainServices,
) {
  if (input.actions) await checkActionUrls(input.actions, services);
  return db.transaction(async (tx) => {
    const current = await loadWorkflow(tx, actor, input.id, { lock: 'update' });
    let secret: string | null = null;
    const changes: Partial<typeof schema.workflows.$inferInsert> = {};
    if (input.name !== undefined) changes.name = input.name;
    if (input.enabled !== undefined) changes.enabled = input.enabled;
    if (input.trigger !== undefined) {
      changes.triggerType = input.trigger.type;
      changes.schedule = scheduleOf(input.trigger);
    }
    if (input.notifyOnFailure !== undefined) {
      await assertMembers(tx, actor.workspaceId, input.notifyOnFailure, 'notifyOnFailure');
      changes.notifyOnFailure = input.notifyOnFailure;
    }
    if (input.actions !== undefined) changes.actions = input.actions as Record<string, unknown>[];
    if (input.rateLimitPerMinute !== undefined) changes.rateLimitPerMinute = input.rateLimitPerMinute;
    if (input.requireSignature === true && current.secret === null) {
      secret = newWebhookSecret();
      changes.secret = sealSecret(secret);
    } else if (input.requireSignature === false) {
      Object.assign(changes, { secret: null, previousSecret: null, previousSecretExpiresAt: null });
    }
    const w = schema.workflows;
    const [updated] = await tx
      .update(w)
      .set({ ...changes, updatedAt: sql`now()` })
      .where(and(eq(w.workspaceId, actor.workspaceId), eq(w.id, current.id)))
      .returning();
    if (!updated) missing('the row update … returning wrote (updated)');
    const rescheduled = input.trigger !== undefined || input.enabled !== undefined;
    const row = rescheduled ? { ...updated, nextRunAt: await syncSchedule(tx, updated) } : updated;
    await audit(tx, actor, {
      action: 'workflow.updated',
      target: { type: 'workflow', id: current.id },
      details: {
        changed: Object.keys(changes).filter(
          (k) => k !== 'previousSecret' && k !== 'previousSecretExpiresAt',
        ),
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
      },
    });
    return { ...serializeWorkflow(row, services.baseUrl), secret };
  });
}

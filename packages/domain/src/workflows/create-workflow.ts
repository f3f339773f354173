import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import type { z } from 'zod';
import { audit } from '../audit/append-audit.ts';
import type { Actor } from '../shared/actor.ts';
import { assertMembers } from '../shared/assert-member.ts';
import { newId } from '../shared/ids.ts';
import { missing } from '../shared/missing.ts';
import { sealOptionalSecret } from '../shared/secret-box.ts';
import type { DomainServices } from '../shared/services.ts';
import { assertWorkspaceLimit } from '../shared/workspace-limit.ts';
import { newWebhookSecret } from '../webhooks/secrets.ts';
import { checkActionUrls } from './check-action-urls.ts';
import { scheduleOf, syncSchedule } from './schedule-workflow.ts';
import { type createWorkflowInput, MAX_WORKFLOWS_PER_WORKSPACE } from './schemas.ts';
import { serializeWorkflow } from './serialize.ts';

/**
 * Creates a workflow; with `requireSignature` its secret is returned, this once, and stored
 * sealed (`sealSecret`, docs/operations.md "Secrets at rest").
 */
export async function createWorkflow(
  db: Executor,
  actor: Actor,
  input: z.infer<typeof createWorkflowInput>,
  services: DomainServices,
) {
  await checkActionUrls(input.actions, services);
  return db.transaction(async (tx) => {
    await assertWorkspaceLimit(
      tx,
      actor.workspaceId,
      schema.workflows,
      MAX_WORKFLOWS_PER_WORKSPACE,
      'workflows',
    );
    await assertMembers(tx, actor.workspaceId, input.notifyOnFailure ?? [], 'notifyOnFailure');
    const secret = input.requireSignature ? newWebhookSecret() : null;
    const [inserted] = await tx
      .insert(schema.workflows)
      .values({
        workspaceId: actor.workspaceId,
        id: newId('workflow'),
        name: input.name,
        enabled: input.enabled ?? true,
        triggerType: input.trigger.type,
        schedule: scheduleOf(input.trigger),
        notifyOnFailure: input.notifyOnFailure ?? [],
        actions: input.actions as Record<string, unknown>[],
        secret: sealOptionalSecret(secret),
        ...(input.rateLimitPerMinute !== undefined ? { rateLimitPerMinute: input.rateLimitPerMinute } : {}),
        createdBy: actor.userId,
      })
      .returning();
    if (!inserted) missing('the row insert … returning wrote (inserted)');
    const row = { ...inserted, nextRunAt: await syncSchedule(tx, inserted) };
    await audit(tx, actor, {
      action: 'workflow.created',
      target: { type: 'workflow', id: row.id },
      details: { name: row.name, trigger: row.triggerType, actions: input.actions.map((a) => a.type) },
    });
    return { ...serializeWorkflow(row, services.baseUrl), secret };
  });
}

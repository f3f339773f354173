import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { audit } from '../audit/append-audit.ts';
import type { Actor } from '../shared/actor.ts';
import { DomainError, invalid } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { missing } from '../shared/missing.ts';
import { sealOptionalSecret, sealSecret } from '../shared/secret-box.ts';
import { assertWorkspaceLimit } from '../shared/workspace-limit.ts';
import type { CheckOutboundUrl } from '../webhooks/create-webhook.ts';
import { newWebhookSecret, PREVIOUS_SECRET_TTL_HOURS } from '../webhooks/secrets.ts';
import { loadWorkflow } from './find-workflows.ts';
import {
  type Action,
  type createWorkflowInput,
  MAX_WORKFLOWS_PER_WORKSPACE,
  type updateWorkflowInput,
} from './schemas.ts';
import { serializeWorkflow } from './serialize.ts';
import { hasTemplate } from './templates.ts';

/**
 * HTTP_REQUEST destinations without templates are checked when the workflow is saved, so a
 * URL the service will never call is a 400 now rather than a failed run later. Templated
 * URLs are checked when the step runs (the address guard also runs at connect time).
 */
async function checkActionUrls(actions: Action[], checkOutboundUrl: CheckOutboundUrl) {
  for (const [index, action] of actions.entries()) {
    if (action.type !== 'HTTP_REQUEST' || hasTemplate(action.url)) continue;
    try {
      await checkOutboundUrl(action.url);
    } catch (error) {
      if (error instanceof DomainError && error.code === 'VALIDATION_FAILED') {
        throw invalid(`actions.${index}.url`, error.details?.[0]?.message ?? error.message);
      }
      throw error;
    }
  }
}

/**
 * Creates a workflow; with `requireSignature` its secret is returned, this once, and stored
 * sealed (`sealSecret`, docs/operations.md "Secrets at rest").
 */
export async function createWorkflow(
  db: Database,
  actor: Actor,
  input: z.infer<typeof createWorkflowInput>,
  options: { baseUrl: string; checkOutboundUrl: CheckOutboundUrl },
) {
  await checkActionUrls(input.actions, options.checkOutboundUrl);
  return db.transaction(async (tx) => {
    await assertWorkspaceLimit(
      tx,
      actor.workspaceId,
      schema.workflows,
      MAX_WORKFLOWS_PER_WORKSPACE,
      'workflows',
    );
    const secret = input.requireSignature ? newWebhookSecret() : null;
    const [row] = await tx
      .insert(schema.workflows)
      .values({
        workspaceId: actor.workspaceId,
        id: newId('workflow'),
        name: input.name,
        enabled: input.enabled ?? true,
        triggerType: input.trigger.type,
        actions: input.actions as Record<string, unknown>[],
        secret: sealOptionalSecret(secret),
        ...(input.rateLimitPerMinute !== undefined ? { rateLimitPerMinute: input.rateLimitPerMinute } : {}),
        createdBy: actor.userId,
      })
      .returning();
    if (!row) missing('the row insert … returning wrote (row)');
    await audit(tx, actor, {
      action: 'workflow.created',
      target: { type: 'workflow', id: row.id },
      details: { name: row.name, trigger: row.triggerType, actions: input.actions.map((a) => a.type) },
    });
    return { ...serializeWorkflow(row, options.baseUrl), secret };
  });
}

/**
 * Changes what is given. `requireSignature: true` makes a secret when there is none (it is
 * returned, this once); `false` drops it. Runs already queued keep the actions they had.
 */
export async function updateWorkflow(
  db: Database,
  actor: Actor,
  input: z.infer<typeof updateWorkflowInput>,
  options: { baseUrl: string; checkOutboundUrl: CheckOutboundUrl },
) {
  if (input.actions) await checkActionUrls(input.actions, options.checkOutboundUrl);
  return db.transaction(async (tx) => {
    const current = await loadWorkflow(tx, actor, input.id, { lock: 'update' });
    let secret: string | null = null;
    const changes: Partial<typeof schema.workflows.$inferInsert> = {};
    if (input.name !== undefined) changes.name = input.name;
    if (input.enabled !== undefined) changes.enabled = input.enabled;
    if (input.trigger !== undefined) changes.triggerType = input.trigger.type;
    if (input.actions !== undefined) changes.actions = input.actions as Record<string, unknown>[];
    if (input.rateLimitPerMinute !== undefined) changes.rateLimitPerMinute = input.rateLimitPerMinute;
    if (input.requireSignature === true && current.secret === null) {
      secret = newWebhookSecret();
      changes.secret = sealSecret(secret);
    } else if (input.requireSignature === false) {
      Object.assign(changes, { secret: null, previousSecret: null, previousSecretExpiresAt: null });
    }
    const w = schema.workflows;
    const [row] = await tx
      .update(w)
      .set({ ...changes, updatedAt: sql`now()` })
      .where(and(eq(w.workspaceId, actor.workspaceId), eq(w.id, current.id)))
      .returning();
    if (!row) missing('the row update … returning wrote (row)');
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
    return { ...serializeWorkflow(row, options.baseUrl), secret };
  });
}

/** Enables or disables; a disabled workflow's URL answers 404 and its events start nothing. */
export async function setWorkflowEnabled(
  db: Database,
  actor: Actor,
  id: string,
  enabled: boolean,
  baseUrl: string,
) {
  // Locked, so a delete racing the change is either before it (404) or after it.
  return db.transaction(async (tx) => {
    const current = await loadWorkflow(tx, actor, id, { lock: 'update' });
    const w = schema.workflows;
    const [row] = await tx
      .update(w)
      .set({ enabled, updatedAt: sql`now()` })
      .where(and(eq(w.workspaceId, actor.workspaceId), eq(w.id, current.id)))
      .returning();
    if (!row) missing('the row update … returning wrote (row)');
    if (current.enabled !== enabled) {
      await audit(tx, actor, {
        action: enabled ? 'workflow.enabled' : 'workflow.disabled',
        target: { type: 'workflow', id: current.id },
      });
    }
    return serializeWorkflow(row, baseUrl);
  });
}

/**
 * A new signing secret, returned this once. The previous one is still accepted for 24 hours
 * so the caller can switch without failed calls.
 */
export async function rotateWorkflowSecret(db: Database, actor: Actor, id: string, baseUrl: string) {
  return db.transaction(async (tx) => {
    const current = await loadWorkflow(tx, actor, id, { lock: 'update' });
    const secret = newWebhookSecret();
    const w = schema.workflows;
    const [row] = await tx
      .update(w)
      .set({
        secret: sealSecret(secret),
        previousSecret: current.secret, // moved as stored (sealed)
        previousSecretExpiresAt: current.secret
          ? sql`now() + make_interval(hours => ${PREVIOUS_SECRET_TTL_HOURS})`
          : null,
        updatedAt: sql`now()`,
      })
      .where(and(eq(w.workspaceId, actor.workspaceId), eq(w.id, current.id)))
      .returning();
    if (!row) missing('the row update … returning wrote (row)');
    await audit(tx, actor, {
      action: 'workflow.secret_rotated',
      target: { type: 'workflow', id: current.id },
    });
    return { ...serializeWorkflow(row, baseUrl), secret };
  });
}

/** Deletes a workflow and its run history; runs still queued are dropped with it. */
export async function deleteWorkflow(db: Database, actor: Actor, id: string) {
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

import { type Executor, runNamedSql } from '@crm/db';
import { sql } from 'drizzle-orm';
import { type Actor, type Provenance, provenanceOf } from '../shared/actor.ts';
import { newId } from '../shared/ids.ts';
import type { AuditAction } from './audit-actions.ts';

export interface AuditEntry {
  action: AuditAction;
  /** What the action was on: `api_key` and its id, `webhook`, `folder`, `user` … */
  target?: { type: string; id: string };
  /** The action's particulars (a key's scopes, a field's key and type, a count). Never a secret. */
  details?: Record<string, unknown>;
}

/**
 * Writes an audit entry in the caller's transaction, so the log holds an action exactly when
 * it happened (docs/api.md, "Audit log"). `by` is who acted: the caller (an actor, whose
 * provenance is used) or, for work without one (a sign-in, the purge), a provenance.
 */
export async function appendAudit(
  tx: Executor,
  workspaceId: string,
  by: Actor | Provenance,
  entry: AuditEntry,
): Promise<void> {
  const provenance = 'workspaceId' in by ? provenanceOf(by) : by;
  await runNamedSql(
    tx,
    'append_audit',
    sql`
    insert into audit_log (workspace_id, id, action, actor_type, actor_id, actor_name, source, request_id,
                           target_type, target_id, details)
    values (${workspaceId}, ${newId('audit')}, ${entry.action}, ${provenance.actor.type}, ${provenance.actor.id},
            ${provenance.actor.name}, ${provenance.source}, ${provenance.requestId},
            ${entry.target?.type ?? null}, ${entry.target?.id ?? null}, ${JSON.stringify(entry.details ?? {})}::jsonb)`,
  );
}

/** `appendAudit` for an actor's own workspace. */
export function audit(tx: Executor, actor: Actor, entry: AuditEntry): Promise<void> {
  return appendAudit(tx, actor.workspaceId, actor, entry);
}

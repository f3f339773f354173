import type { Database } from '@crm/db';
import { type Actor, DomainError, getRecord, type RunRow, type TemplateScope } from '@crm/domain';
import { sql } from 'drizzle-orm';

/**
 * Who a run acts as: the user who created the workflow (comment author, the actor of the
 * events it causes), or, once that user has left the workspace, its owner. Null when the
 * workspace has no member left.
 */
export async function loadRunActor(db: Database, run: RunRow): Promise<Actor | null> {
  const result = await db.execute<{ id: string; name: string; role: Actor['role'] }>(sql`
    select u.id, u.name, m.role
      from memberships m
      join users u on u.id = m.user_id
      left join workflows w on w.workspace_id = m.workspace_id and w.id = ${run.workflowId}
     where m.workspace_id = ${run.workspaceId}
     order by (m.user_id = w.created_by) desc nulls last, (m.role = 'OWNER') desc, m.user_id
     limit 1`);
  const row = result.rows[0];
  if (!row) return null;
  return {
    workspaceId: run.workspaceId,
    userId: row.id,
    userName: row.name,
    role: row.role,
    apiKeyId: null,
    scopes: ['read', 'write'],
  };
}

/** What the templates of the next step can read: the trigger, the context record, earlier outputs. */
export async function buildScope(db: Database, run: RunRow, actor: Actor): Promise<TemplateScope> {
  let record: unknown = null;
  if (run.contextRecordId) {
    try {
      record = await getRecord(db, actor, run.contextRecordId);
    } catch (error) {
      // A context record moved to Trash reads as null; the step that needs it says so.
      if (!(error instanceof DomainError && error.code === 'NOT_FOUND')) throw error;
    }
  }
  return {
    trigger: { body: run.input, recordId: run.recordId, type: run.trigger },
    record,
    steps: run.actions.map((_action, index) => ({ output: run.steps[index]?.output ?? null })),
  };
}

import { type Executor, runNamedSql } from '@crm/db';
import { sql } from 'drizzle-orm';

/**
 * Sign-ins in the audit log (docs/api.md, "Audit log"): a session started, in the workspace it
 * opens; a failed attempt for an address that belongs to a user, in each workspace of that
 * user, so every admin concerned sees it. An attempt for an address no user has belongs to no
 * workspace and is not logged (the sign-in throttles still count it).
 */
export async function auditSignIn(
  tx: Executor,
  userId: string,
  workspaceId: string,
  from: { address: string; requestId?: string | undefined },
): Promise<void> {
  await runNamedSql(
    tx,
    'audit_sign_in',
    sql`
    insert into audit_log (workspace_id, id, action, actor_type, actor_id, actor_name, source, request_id,
                           target_type, target_id, details)
    select ${workspaceId}, new_typeid('aud'), 'user.signed_in', 'user', u.id, u.name, 'web', ${from.requestId ?? null},
           'user', u.id, jsonb_build_object('address', ${from.address}::text)
      from users u where u.id = ${userId}`,
  );
}

export async function auditFailedSignIn(
  tx: Executor,
  email: string,
  from: { address: string; requestId?: string | undefined },
  reason: 'wrong-credentials' | 'throttled',
): Promise<void> {
  await runNamedSql(
    tx,
    'audit_failed_sign_in',
    sql`
    insert into audit_log (workspace_id, id, action, actor_type, actor_id, actor_name, source, request_id,
                           target_type, target_id, details)
    select m.workspace_id, new_typeid('aud'), 'user.sign_in_failed', 'user', u.id, u.name, 'web', ${from.requestId ?? null},
           'user', u.id, jsonb_build_object('address', ${from.address}::text, 'reason', ${reason}::text)
      from users u join memberships m on m.user_id = u.id
     where u.email = ${email}`,
  );
}

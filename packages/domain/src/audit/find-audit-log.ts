import { type Database, runNamedSql } from '@crm/db';
import { sql } from 'drizzle-orm';
import type { Actor } from '../shared/actor.ts';
import { encodeCursor } from '../shared/cursor.ts';
import { pageOf, resolvePaging } from '../shared/paging.ts';
import type { AuditEntryOutput, FindAuditLogInput } from './schemas.ts';

interface AuditRow extends Record<string, unknown> {
  id: string;
  at: string;
  action: AuditEntryOutput['action'];
  actor_type: AuditEntryOutput['actor']['type'];
  actor_id: string;
  actor_name: string;
  source: AuditEntryOutput['source'];
  request_id: string | null;
  target_type: string | null;
  target_id: string | null;
  details: Record<string, unknown>;
}

/**
 * `GET /audit-log` (docs/api.md, "Audit log"): the workspace's entries newest first, by its key
 * read backwards, narrowed by actor, action and time; paged by cursor.
 */
export async function findAuditLog(db: Database, actor: Actor, input: FindAuditLogInput) {
  const paging = resolvePaging({ pageSize: input.pageSize, cursor: input.cursor });
  const after = paging.kind === 'cursor' ? paging.after.id : null;
  const rows = await runNamedSql<AuditRow>(
    db,
    after === null ? 'find_audit_log' : 'find_audit_log_after',
    sql`
    select id, at, action, actor_type, actor_id, actor_name, source, request_id, target_type, target_id, details
      from audit_log
     where workspace_id = ${actor.workspaceId}
       ${after === null ? sql`` : sql`and id < ${after}`}
       and (${input.actorType ?? null}::text is null or actor_type = ${input.actorType ?? null}::text)
       and (${input.actorId ?? null}::text is null or actor_id = ${input.actorId ?? null}::text)
       and (${input.action ?? null}::text is null or action = ${input.action ?? null}::text)
       and (${input.since ?? null}::timestamptz is null or at >= ${input.since ?? null}::timestamptz)
     order by id desc
     limit ${paging.pageSize + 1}`,
  );
  // Keyset pages only: `page` is always null, as the log has no page numbers.
  return pageOf(
    rows,
    { kind: 'cursor', pageSize: paging.pageSize },
    (row): AuditEntryOutput => ({
      id: row.id,
      at: new Date(row.at).toISOString(),
      action: row.action,
      actor: { type: row.actor_type, id: row.actor_id, name: row.actor_name },
      source: row.source,
      requestId: row.request_id,
      target: row.target_type && row.target_id ? { type: row.target_type, id: row.target_id } : null,
      details: row.details,
    }),
    (last) => encodeCursor({ createdAt: new Date(last.at).toISOString(), id: last.id }),
  );
}

/** Days an audit entry is kept unless `AUDIT_RETENTION_DAYS` says otherwise: a year. */
export const AUDIT_RETENTION_DAYS = 365;

/** Removes the entries older than the retention, across workspaces (a daily job); returns how many. */
export async function pruneAuditLog(db: Database, retentionDays = AUDIT_RETENTION_DAYS): Promise<number> {
  const result = await db.execute(
    sql`delete from audit_log where at < now() - make_interval(days => ${retentionDays})`,
  );
  return result.rowCount ?? 0;
}

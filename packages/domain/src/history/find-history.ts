import type { Database, Executor } from '@crm/db';
import { runNamedSql } from '@crm/db';
import type { HistorySubject } from '@crm/db/schema';
import { sql } from 'drizzle-orm';
import { loadDeal } from '../deals/load-deal.ts';
import { loadRecord } from '../records/load-record.ts';
import type { Actor } from '../shared/actor.ts';
import { encodeCursor } from '../shared/cursor.ts';
import { pageOf, resolvePaging } from '../shared/paging.ts';
import { loadTask } from '../tasks/load-task.ts';
import type { FindHistoryInput, HistoryEntryOutput } from './schemas.ts';

/**
 * The subject whose history is read or reverted, as its own GET finds it: a live record the
 * caller reaches (404 otherwise, a folder-limited key included), a deal, a task.
 */
export async function loadSubject(
  tx: Executor,
  actor: Actor,
  subject: HistorySubject,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<void> {
  if (subject === 'record') await loadRecord(tx, actor, id, options);
  else if (subject === 'deal') await loadDeal(tx, actor, id, options);
  else await loadTask(tx, actor, id, options);
}

export interface HistoryRow {
  id: string;
  at: string;
  field: string;
  from_value: unknown;
  to_value: unknown;
  actor_type: string;
  actor_id: string;
  actor_name: string;
  source: string;
  request_id: string | null;
}

function serializeHistoryEntry(row: HistoryRow): HistoryEntryOutput {
  return {
    id: row.id,
    at: new Date(row.at).toISOString(),
    field: row.field,
    from: row.from_value,
    to: row.to_value,
    actor: {
      type: row.actor_type as HistoryEntryOutput['actor']['type'],
      id: row.actor_id,
      name: row.actor_name,
    },
    source: row.source as HistoryEntryOutput['source'],
    requestId: row.request_id,
  };
}

/**
 * `GET /records/{id}/history` and the deals' and tasks' (docs/api.md, "History and
 * provenance"): every field change of the subject, newest first, by its key read backwards,
 * with `field` and `since` narrowing it. Paged by cursor only (its ids are time-ordered).
 * `subject` is the kind the route names (`/records/…`, `/deals/…`, `/tasks/…`).
 */
export async function findHistory(
  db: Database,
  actor: Actor,
  input: FindHistoryInput & { subject: HistorySubject },
) {
  await loadSubject(db, actor, input.subject, input.id);
  const paging = resolvePaging({ pageSize: input.pageSize, cursor: input.cursor });
  const after = paging.kind === 'cursor' ? paging.after.id : null;
  // Two statements, with and without a cursor, so the key condition of each is one the
  // plan can use (a condition that may be null cannot bound the index scan).
  const rows = await runNamedSql<HistoryRow & Record<string, unknown>>(
    db,
    after === null ? 'find_history' : 'find_history_after',
    sql`
    select id, at, field, from_value, to_value, actor_type, actor_id, actor_name, source, request_id
      from history
     where workspace_id = ${actor.workspaceId} and subject_id = ${input.id}
       ${after === null ? sql`` : sql`and id < ${after}`}
       and (${input.field ?? null}::text is null or field = ${input.field ?? null}::text)
       and (${input.since ?? null}::timestamptz is null or at >= ${input.since ?? null}::timestamptz)
     order by id desc
     limit ${paging.pageSize + 1}`,
  );
  // Keyset pages only: `page` is always null, as the history has no page numbers.
  return pageOf(rows, { kind: 'cursor', pageSize: paging.pageSize }, serializeHistoryEntry, (last) =>
    encodeCursor({ createdAt: new Date(last.at).toISOString(), id: last.id }),
  );
}

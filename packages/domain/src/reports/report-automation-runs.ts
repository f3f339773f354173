import type { Executor } from '@crm/db';
import { runStatuses } from '@crm/db/schema';
import { sql } from 'drizzle-orm';
import type { Actor } from '../shared/actor.ts';
import type { AutomationRunsReportOutput } from './schemas.ts';
import { utcDays } from './windows.ts';

/** How many days the report covers, today (UTC) included. */
const AUTOMATION_RUNS_DAYS = 14;

interface RunRow extends Record<string, unknown> {
  /** Null on the rows of the whole window. */
  day: string | null;
  /** Null on the rows of every status. */
  status: (typeof runStatuses)[number] | null;
  count: number;
}

type Counts = AutomationRunsReportOutput['totals'];

const zero = (): Counts => ({
  queued: 0,
  running: 0,
  waiting: 0,
  succeeded: 0,
  failed: 0,
  cancelled: 0,
  total: 0,
});
const field = {
  QUEUED: 'queued',
  RUNNING: 'running',
  WAITING: 'waiting',
  SUCCEEDED: 'succeeded',
  FAILED: 'failed',
  CANCELLED: 'cancelled',
} as const satisfies Record<(typeof runStatuses)[number], keyof Counts>;

/**
 * The workspace's automation runs of the last 14 days (UTC) per day and status, counted by
 * PostgreSQL: a run counts on the day it was queued (`createdAt`), under its status now
 * (QUEUED, RUNNING, WAITING, SUCCEEDED, FAILED or CANCELLED; a rerun is a run of its own). The window is the 14
 * whole UTC days that end with today's; every day is listed, also without runs.
 */
export async function reportAutomationRuns(
  db: Executor,
  actor: Actor,
  now: Date = new Date(),
): Promise<AutomationRunsReportOutput> {
  const window = utcDays(now, AUTOMATION_RUNS_DAYS);
  const from = window.from.toISOString();
  const to = window.to.toISOString();
  const result = await db.execute<RunRow>(sql`
    select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day, status, count(*)::int as count
      from workflow_runs
     where workspace_id = ${actor.workspaceId}
       and created_at >= ${from}::timestamptz and created_at < ${to}::timestamptz
     group by grouping sets ((day, status), (day), (status), ())`);
  const days = new Map(window.days.map((day) => [day, zero()]));
  const totals = zero();
  for (const row of result.rows) {
    const counts = row.day === null ? totals : days.get(row.day);
    if (!counts) continue;
    if (row.status === null) counts.total = row.count;
    else counts[field[row.status]] = row.count;
  }
  return {
    from,
    to,
    statuses: [...runStatuses],
    totals,
    days: [...days.entries()].map(([day, counts]) => ({ day, ...counts })),
  };
}

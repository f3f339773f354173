import type { Executor } from '@crm/db';
import { type SQL, sql } from 'drizzle-orm';
import { loadPipeline } from '../deals/stages.ts';
import type { CurrencyTotal } from '../pipelines/schemas.ts';
import { currencyTotalOf } from '../pipelines/summarize-pipeline.ts';
import type { Actor } from '../shared/actor.ts';
import type { WonLostReportOutput } from './schemas.ts';
import { utcMonths } from './windows.ts';

/** How many months the report covers, the current one included. */
const WON_LOST_MONTHS = 12;

/** Stage names (trimmed, any case) whose deals count as won or lost. */
const WON_NAMES = new Set(['won', 'closed won']);
const LOST_NAMES = new Set(['lost', 'closed lost']);

/** `stage_id in (…)`, false for no stage. */
function isAnyOf(stageIds: string[]): SQL {
  if (stageIds.length === 0) return sql`false`;
  return sql`stage_id in (${sql.join(
    stageIds.map((id) => sql`${id}`),
    sql`, `,
  )})`;
}

interface MonthRow extends Record<string, unknown> {
  month: string;
  outcome: 'won' | 'lost';
  /** Null on the row that counts every currency of the month and outcome. */
  currency: string | null;
  count: number;
  /** numeric, as PostgreSQL writes it; null when no deal of the group has an amount. */
  amount: string | null;
}

/**
 * Deals of a pipeline won and lost per month over the last 12 months (UTC), counted and summed
 * per currency by PostgreSQL (exact to the cent; currencies never added together).
 *
 * A stage has no kind of its own: a deal is won while it sits in a stage named "Won" or
 * "Closed won" and lost in one named "Lost" or "Closed lost" (trimmed, any case; the default
 * pipeline has "Won" and "Lost"). Its month is that of its close date when it has one (a
 * calendar date, taken as it is), else that of its last change (`updatedAt`, in UTC): moving a
 * deal into Won or Lost is such a change, and the service keeps no other lasting trace of
 * when it happened (events are kept 30 days). Deals whose month falls outside the window are
 * not counted; every month of the window is listed, also without deals.
 */
export async function reportWonLost(
  db: Executor,
  actor: Actor,
  pipelineId: string,
  now: Date = new Date(),
): Promise<WonLostReportOutput> {
  const { pipeline, stages } = await loadPipeline(db, actor, pipelineId);
  const named = (names: Set<string>) =>
    stages
      .filter((stage) => names.has(stage.name.trim().toLowerCase()))
      .map((stage) => ({ stageId: stage.id, name: stage.name }));
  const wonStages = named(WON_NAMES);
  const lostStages = named(LOST_NAMES);
  const window = utcMonths(now, WON_LOST_MONTHS);
  const won = wonStages.map((s) => s.stageId);
  const lost = lostStages.map((s) => s.stageId);

  const rows =
    won.length + lost.length === 0
      ? []
      : (
          await db.execute<MonthRow>(sql`
            with closed as (
              select case when ${isAnyOf(won)} then 'won' else 'lost' end as outcome,
                     to_char(coalesce(close_date, (updated_at at time zone 'UTC')::date), 'YYYY-MM') as month,
                     currency, amount
                from deals
               where workspace_id = ${actor.workspaceId} and pipeline_id = ${pipeline.id}
                 and ${isAnyOf([...won, ...lost])}
            )
            select month, outcome, currency, count(*)::int as count, sum(amount)::text as amount
              from closed
             where month >= ${window.from.slice(0, 7)} and month < ${window.to.slice(0, 7)}
             group by grouping sets ((month, outcome, currency), (month, outcome))
             order by month, outcome, currency nulls first`)
        ).rows;

  const months = new Map(
    window.months.map((month) => [
      month,
      {
        month,
        won: { count: 0, totals: [] as CurrencyTotal[] },
        lost: { count: 0, totals: [] as CurrencyTotal[] },
      },
    ]),
  );
  const currencies = new Set<string>();
  for (const row of rows) {
    const entry = months.get(row.month)?.[row.outcome];
    if (!entry) continue;
    if (row.currency === null) {
      entry.count = row.count;
    } else {
      currencies.add(row.currency);
      entry.totals.push(currencyTotalOf({ ...row, currency: row.currency }));
    }
  }
  return {
    pipelineId: pipeline.id,
    from: window.from,
    to: window.to,
    wonStages,
    lostStages,
    currencies: [...currencies].sort(),
    months: [...months.values()],
  };
}

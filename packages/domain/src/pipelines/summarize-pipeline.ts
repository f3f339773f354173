import type { Executor } from '@crm/db';
import { sql } from 'drizzle-orm';
import { loadPipeline } from '../deals/stages.ts';
import type { Actor } from '../shared/actor.ts';
import type { CurrencyTotal, PipelineSummaryOutput } from './schemas.ts';

interface TotalRow extends Record<string, unknown> {
  /** Null on the rows of the whole pipeline (the second grouping set). */
  stage_id: string | null;
  currency: string;
  count: number;
  /** numeric, as PostgreSQL writes it; null when no deal of the group has an amount. */
  amount: string | null;
}

/**
 * How many deals each stage of a pipeline holds and what they amount to, per currency, over
 * all of its deals (docs/api.md, "Pipeline summary"). The sums are made by PostgreSQL on the
 * numeric amounts, so they are exact to the cent; amounts in different currencies are kept
 * apart. One statement: the grouping sets give the stage rows and the pipeline's own.
 */
export async function summarizePipeline(
  db: Executor,
  actor: Actor,
  id: string,
): Promise<PipelineSummaryOutput> {
  const { pipeline, stages } = await loadPipeline(db, actor, id);
  const result = await db.execute<TotalRow>(sql`
    select stage_id, currency, count(*)::int as count, sum(amount)::text as amount
      from deals
     where workspace_id = ${actor.workspaceId} and pipeline_id = ${pipeline.id}
     group by grouping sets ((stage_id, currency), (currency))
     order by currency`);
  const byStage = new Map<string, CurrencyTotal[]>();
  const totals: CurrencyTotal[] = [];
  for (const row of result.rows) {
    const total = currencyTotalOf(row);
    if (row.stage_id === null) {
      totals.push(total);
    } else {
      const list = byStage.get(row.stage_id) ?? [];
      list.push(total);
      byStage.set(row.stage_id, list);
    }
  }
  const countOf = (list: CurrencyTotal[]) => list.reduce((sum, t) => sum + t.count, 0);
  return {
    pipelineId: pipeline.id,
    count: countOf(totals),
    totals,
    stages: stages.map((stage) => {
      const stageTotals = byStage.get(stage.id) ?? [];
      return { stageId: stage.id, name: stage.name, count: countOf(stageTotals), totals: stageTotals };
    }),
  };
}

/**
 * A row of a per-currency sum as the API gives it: PostgreSQL's exact `numeric` sum (a string)
 * as a number to the cent, 0 where no deal had an amount.
 */
export function currencyTotalOf(row: {
  currency: string;
  count: number;
  amount: string | null;
}): CurrencyTotal {
  return { currency: row.currency, count: row.count, amount: row.amount === null ? 0 : Number(row.amount) };
}

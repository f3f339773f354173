import type pg from 'pg';

/** One node of a query plan: its type and, for a scan, the index and the table. */
export interface PlanNode {
  type: string;
  index?: string | undefined;
  relation?: string | undefined;
  /** With `analyze`: whether the node ran (a branch a one-time filter skips did not). */
  executed?: boolean;
}

/**
 * Records the statements `pool` sends while `plansOf(run, reads)` runs `run`, then EXPLAINs
 * (with their parameters) those whose text matches `reads`, giving each one's plan nodes: the
 * index tests assert which indexes the exact SQL of a query uses. With `analyze`, the
 * statements run again under EXPLAIN ANALYZE, and each node tells whether it ran.
 */
export function planRecorder(pool: pg.Pool) {
  let captured: { text: string; values: unknown[] }[] | null = null;
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  (pool as unknown as { query: unknown }).query = (config: unknown, values?: unknown) => {
    if (captured && typeof config === 'object' && config !== null && 'text' in config) {
      const c = config as { text: string; values?: unknown[] };
      captured.push({ text: c.text, values: c.values ?? (values as unknown[]) ?? [] });
    } else if (captured && typeof config === 'string') {
      captured.push({ text: config, values: (values as unknown[]) ?? [] });
    }
    return query(config, values);
  };
  return async function plansOf(
    run: () => Promise<unknown>,
    reads: RegExp,
    options: { analyze?: boolean } = {},
  ): Promise<{ text: string; nodes: PlanNode[] }[]> {
    captured = [];
    let sent: { text: string; values: unknown[] }[];
    try {
      await run();
    } finally {
      sent = captured;
      captured = null;
    }
    const plans = [];
    for (const statement of sent.filter((s) => reads.test(s.text))) {
      const { rows } = await pool.query(
        `explain (format json${options.analyze ? ', analyze' : ''}) ${statement.text}`,
        statement.values,
      );
      const nodes: PlanNode[] = [];
      const walk = (node: Record<string, unknown>) => {
        nodes.push({
          type: node['Node Type'] as string,
          index: node['Index Name'] as string | undefined,
          relation: node['Relation Name'] as string | undefined,
          ...(options.analyze ? { executed: (node['Actual Loops'] as number) > 0 } : {}),
        });
        for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
      };
      walk((rows[0]['QUERY PLAN'] as { Plan: Record<string, unknown> }[])[0]!.Plan);
      plans.push({ text: statement.text, nodes });
    }
    return plans;
  };
}

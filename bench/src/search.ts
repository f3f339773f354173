import { missing } from '@crm/domain';
import type pg from 'pg';
import { SEARCH_TERMS, type SearchTerm } from './data.ts';
import { explain, type PlanSummary } from './explain.ts';
import { getJson } from './http-client.ts';
import { recordStatementsOf } from './parity.ts';
import { percentile, round } from './time.ts';

export interface SearchLatency {
  records: number;
  requests: number;
  /** True when the time budget ran out before every request was sent. */
  cutShort: boolean;
  p50: number;
  p95: number;
  max: number;
  byKind: Record<SearchTerm['kind'], { requests: number; p50: number; p95: number }>;
  /** Median latency and row count of each term. */
  byTerm: { term: string; kind: SearchTerm['kind']; rows: number; p50: number }[];
}

/**
 * Sends `count` sequential GET /api/v1/records?q=<term>&pageSize=50 to the service, cycling
 * over the terms, and times each round trip (ms). Stops early when `budgetMs` is spent.
 */
export async function measureSearch(
  url: string,
  apiKey: string,
  records: number,
  count: number,
  budgetMs: number,
): Promise<SearchLatency> {
  const samples: { term: SearchTerm; ms: number; rows: number }[] = [];
  const started = performance.now();
  let cutShort = false;
  for (let i = 0; i < count; i++) {
    if (performance.now() - started > budgetMs) {
      cutShort = true;
      break;
    }
    const term = SEARCH_TERMS[i % SEARCH_TERMS.length] ?? missing('SEARCH_TERMS[i % SEARCH_TERMS.length]');
    const t0 = performance.now();
    const { status, body } = await getJson<{ data?: unknown[] }>(
      url,
      `/api/v1/records?q=${encodeURIComponent(term.term)}&pageSize=50`,
      apiKey,
    );
    const ms = performance.now() - t0;
    if (status !== 200 || !Array.isArray(body.data)) {
      throw new Error(`search for ${term.term} answered ${status}: ${JSON.stringify(body)}`);
    }
    samples.push({ term, ms, rows: body.data.length });
  }
  const summary = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return { p50: round(percentile(sorted, 50)), p95: round(percentile(sorted, 95)) };
  };
  const all = summary(samples.map((s) => s.ms));
  const byKind = {} as SearchLatency['byKind'];
  for (const kind of ['common', 'medium', 'rare', 'none'] as const) {
    const of = samples.filter((s) => s.term.kind === kind).map((s) => s.ms);
    byKind[kind] = { requests: of.length, ...summary(of) };
  }
  const byTerm = SEARCH_TERMS.map((term) => {
    const of = samples.filter((s) => s.term === term);
    return {
      term: term.term,
      kind: term.kind,
      rows: of[0]?.rows ?? 0,
      p50: summary(of.map((s) => s.ms)).p50,
    };
  });
  return {
    records,
    requests: samples.length,
    cutShort,
    ...all,
    max: round(Math.max(...samples.map((s) => s.ms))),
    byKind,
    byTerm,
  };
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of the statements the service itself sends for a search of each of
 * `terms` (GET /api/v1/records?q=<term>&pageSize=50), with their parameters: the walk, and
 * each part of the rest it went on to (docs/performance.md, "Search"). The service's SQL trace
 * is switched back on for it (the file written again, then SIGUSR2: trace-sql.mjs) and off
 * again by deleting the file.
 */
export async function explainSearches(
  pool: pg.Pool,
  url: string,
  apiKey: string,
  workspaceId: string,
  service: { pid: number; traceFile: string },
  terms: SearchTerm[],
): Promise<PlanSummary[]> {
  const paths = terms.map((term) => `/api/v1/records?q=${encodeURIComponent(term.term)}&pageSize=50`);
  const traced = await recordStatementsOf(service, paths, (path) => getJson(url, path, apiKey));
  const plans: PlanSummary[] = [];
  for (const [i, term] of terms.entries()) {
    const statements = traced[i] ?? missing('traced[i]');
    const pattern = `%${term.term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const counted = await pool.query<{ n: string }>(
      'select count(*) as n from records where workspace_id = $1 and trashed_at is null and search_text ilike $2',
      [workspaceId, pattern],
    );
    for (const [n, s] of statements.entries()) {
      plans.push({
        statement: `q=${JSON.stringify(term.term)} ${n + 1}/${statements.length}`,
        kind: term.kind,
        matchingRows: Number((counted.rows[0] ?? missing('counted.rows[0]')).n),
        ...(await explain(pool, s.text, s.values)),
        sql: s,
      });
    }
  }
  return plans;
}

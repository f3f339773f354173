/**
 * The list-query series: filters, sorts, counts and cursors of `GET /api/v1/records`
 * (docs/api.md, "Filters, sorts and counts") sent one at a time to the service, and the
 * EXPLAIN of the statements it sends for them, captured from its SQL trace.
 */

import { missing } from '@crm/domain';
import type pg from 'pg';
import { explain, type PlanSummary } from './explain.ts';
import { getJson } from './http-client.ts';
import { traceOf } from './parity.ts';
import { percentile, round } from './time.ts';

/** p95 each of the target queries must stay under, at 1,000,000 records. */
export const LIST_TARGET_MS = 50;

const DAY = 24 * 3600_000;

export interface ListContext {
  /** The options of the folder's lifecycle SELECT field, in their order. */
  lifecycles: readonly string[];
}

export interface ListQuery {
  id: 'select-eq' | 'number-range' | 'polling' | 'combined' | 'count' | 'count-estimate' | 'cursor-page';
  label: string;
  /** One of (a)-(d), whose p95 has a target; the others are reported beside them. */
  inTarget: boolean;
  /** The share of the series' requests this query gets (default all). */
  share?: number;
  /** The query string of the i-th measured request (pageSize aside), varied from one to the next. */
  query(i: number, context: ListContext): string;
  /** The request whose statement is captured and explained. */
  sample(context: ListContext): string;
}

const since = (minutesEarlier: number) =>
  encodeURIComponent(new Date(Date.now() - DAY - minutesEarlier * 60_000).toISOString());
const lifecycle = (value: string) => `filter[data.lifecycle]=${encodeURIComponent(value)}`;
const score = (gte: number, lt: number) => `filter[data.score][gte]=${gte}&filter[data.score][lt]=${lt}`;
const pick = (values: readonly string[], i: number) =>
  values[i % values.length] ?? missing('values[i % values.length]');
const combined = (value: string, gte: number) =>
  `${lifecycle(value)}&${score(gte, gte + 20)}&sort=-updatedAt`;

export const LIST_QUERIES: ListQuery[] = [
  {
    id: 'select-eq',
    label: '(a) filter[data.lifecycle]=<option>',
    inTarget: true,
    query: (i, c) => lifecycle(pick(c.lifecycles, i)),
    sample: () => lifecycle('Customer'),
  },
  {
    id: 'number-range',
    label: '(b) filter[data.score][gte]=X&[lt]=X+10',
    inTarget: true,
    // X from 0 to 90: ranges in the bunched middle of the scores and in their thin tails.
    query: (i) => {
      const x = (i * 37) % 91;
      return score(x, x + 10);
    },
    sample: () => score(50, 60),
  },
  {
    id: 'polling',
    label: '(c) sort=-updatedAt&updatedSince=<a day back>',
    inTarget: true,
    query: (i) => `sort=-updatedAt&updatedSince=${since(i % 60)}`,
    sample: () => `sort=-updatedAt&updatedSince=${since(0)}`,
  },
  {
    id: 'combined',
    label: '(d) lifecycle=<option> & score [X, X+20) sort=-updatedAt',
    inTarget: true,
    query: (i, c) => combined(pick(c.lifecycles, i), 30 + ((i * 13) % 41)),
    sample: () => combined('Customer', 50),
  },
  {
    id: 'count',
    label: '(a) with count=true',
    inTarget: false,
    // Counting reads every matching row: a quarter of the requests keeps the series short.
    share: 0.25,
    query: (i, c) => `${lifecycle(pick(c.lifecycles, i))}&count=true`,
    sample: () => `${lifecycle('Customer')}&count=true`,
  },
  {
    id: 'count-estimate',
    label: '(a) with count=estimate',
    inTarget: false,
    // The planner's estimate (meta.totalEstimate) instead of counting: the same requests as count=true.
    share: 0.25,
    query: (i, c) => `${lifecycle(pick(c.lifecycles, i))}&count=estimate`,
    sample: () => `${lifecycle('Customer')}&count=estimate`,
  },
  {
    id: 'cursor-page',
    label: '(d), second page by cursor',
    inTarget: false,
    // The cursor comes from the first page, fetched unmeasured just before (see measureLists).
    query: (i, c) => combined(pick(c.lifecycles, i), 30 + ((i * 13) % 41)),
    sample: () => combined('Customer', 50),
  },
];

interface Page {
  data: unknown[];
  meta: { nextCursor: string | null; total?: number; totalEstimate?: number };
}

async function getPage(url: string, apiKey: string, query: string): Promise<Page> {
  const { status, body } = await getJson<Partial<Page>>(url, `/api/v1/records?pageSize=50&${query}`, apiKey);
  if (status !== 200 || !Array.isArray(body.data) || !body.meta) {
    throw new Error(`GET /api/v1/records?${query} answered ${status}: ${JSON.stringify(body)}`);
  }
  return body as Page;
}

export interface ListQueryLatency {
  id: ListQuery['id'];
  label: string;
  /** A query string as sent (the first measured request's). */
  example: string;
  inTarget: boolean;
  requests: number;
  p50: number;
  p95: number;
  max: number;
  /** Median rows a page returned. */
  rows: number;
  /** For (a)-(d): p95 below LIST_TARGET_MS. */
  meetsTarget?: boolean;
  /** count=true: median `meta.total`. */
  total?: number;
  /** count=estimate: median `meta.totalEstimate`. */
  totalEstimate?: number;
  /** From the EXPLAIN (ANALYZE, BUFFERS) of the sample's statement at this size (for (a)-(d)). */
  plan?: { indexesUsed: string[]; topNode: string; executionMs: number };
}

export interface ListLatency {
  records: number;
  /** Measured requests per query asked for. */
  requestsPerQuery: number;
  /** True when the time budget ran out before every request was sent. */
  cutShort: boolean;
  targetMs: number;
  queries: ListQueryLatency[];
}

/**
 * After one unmeasured pass (four requests of each query), sends `count` requests of each
 * query (a quarter of that with count=true and count=estimate), one at a time and in turn (a, b, c, d,
 * count, estimate, cursor, a, …), and times each round trip (ms). The second-page request is timed alone; the first page that gives its cursor is
 * fetched just before, unmeasured. Stops early when `budgetMs` is spent.
 */
export async function measureLists(
  url: string,
  apiKey: string,
  records: number,
  count: number,
  budgetMs: number,
  context: ListContext,
): Promise<ListLatency> {
  const samples = new Map<
    ListQuery['id'],
    { ms: number; rows: number; total?: number; totalEstimate?: number }[]
  >(LIST_QUERIES.map((q) => [q.id, []]));
  const examples = new Map<ListQuery['id'], string>();
  const once = async (q: ListQuery, i: number) => {
    let query = q.query(i, context);
    let example = query;
    if (q.id === 'cursor-page') {
      const first = await getPage(url, apiKey, query);
      if (!first.meta.nextCursor) return undefined;
      example = `${query}&cursor=<nextCursor of page 1>`;
      query = `${query}&cursor=${encodeURIComponent(first.meta.nextCursor)}`;
    }
    const t0 = performance.now();
    const page = await getPage(url, apiKey, query);
    const ms = performance.now() - t0;
    if (!examples.has(q.id)) examples.set(q.id, example);
    return {
      ms,
      rows: page.data.length,
      ...(page.meta.total === undefined ? {} : { total: page.meta.total }),
      ...(page.meta.totalEstimate === undefined ? {} : { totalEstimate: page.meta.totalEstimate }),
    };
  };
  for (let i = 0; i < 4; i++) for (const q of LIST_QUERIES) await once(q, i);
  examples.clear();

  const started = performance.now();
  let cutShort = false;
  outer: for (let i = 0; i < count; i++) {
    for (const q of LIST_QUERIES) {
      if (i >= Math.ceil(count * (q.share ?? 1))) continue;
      if (performance.now() - started > budgetMs) {
        cutShort = true;
        break outer;
      }
      const sample = await once(q, i);
      if (sample) (samples.get(q.id) ?? missing('samples.get(q.id)')).push(sample);
    }
  }

  const median = (values: number[]) =>
    percentile(
      [...values].sort((a, b) => a - b),
      50,
    );
  const queries = LIST_QUERIES.map((q): ListQueryLatency => {
    const of = samples.get(q.id) ?? missing('samples.get(q.id)');
    const sorted = of.map((s) => s.ms).sort((a, b) => a - b);
    const p95 = round(percentile(sorted, 95));
    const totals = of.flatMap((s) => (s.total === undefined ? [] : [s.total]));
    const estimates = of.flatMap((s) => (s.totalEstimate === undefined ? [] : [s.totalEstimate]));
    return {
      id: q.id,
      label: q.label,
      example: examples.get(q.id) ?? q.query(0, context),
      inTarget: q.inTarget,
      requests: of.length,
      p50: round(percentile(sorted, 50)),
      p95,
      max: round(sorted[sorted.length - 1] ?? Number.NaN),
      rows: median(of.map((s) => s.rows)),
      ...(q.inTarget ? { meetsTarget: of.length > 0 && p95 < LIST_TARGET_MS } : {}),
      ...(totals.length > 0 ? { total: median(totals) } : {}),
      ...(estimates.length > 0 ? { totalEstimate: median(estimates) } : {}),
    };
  });
  return { records, requestsPerQuery: count, cutShort, targetMs: LIST_TARGET_MS, queries };
}

/** The statement on records the service sends for one sample request, from its SQL trace. */
export interface CapturedStatement {
  id: ListQuery['id'];
  /** The request, e.g. `filter[data.lifecycle]=Customer`. */
  query: string;
  text: string;
  values: unknown[];
}

/**
 * Sends the sample request of each of (a)-(d) to the service while its SQL trace is on, and
 * keeps the one statement on records each sent (the folder lookup, the key and the rate
 * limit aside): its text and parameters are what the EXPLAINs run.
 */
export async function captureListStatements(
  url: string,
  apiKey: string,
  traceFile: string,
  context: ListContext,
): Promise<CapturedStatement[]> {
  const captured: CapturedStatement[] = [];
  for (const q of LIST_QUERIES.filter((x) => x.inTarget)) {
    const query = q.sample(context);
    const { lines } = await traceOf(traceFile, () => getPage(url, apiKey, query));
    const onRecords = lines.filter((line) => /\bfrom "records"/.test(line.text));
    const statement = onRecords[0];
    if (onRecords.length !== 1 || !statement?.values) {
      throw new Error(
        `GET /api/v1/records?${query}: expected one traced statement on records with its parameters, got ${
          onRecords.length
        }:\n${onRecords.map((line) => `  ${line.text}`).join('\n')}`,
      );
    }
    captured.push({ id: q.id, query, text: statement.text, values: statement.values });
  }
  return captured;
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of each captured statement with its captured parameters; the
 * rows its filters match are the service's own `count=true` of the same request.
 */
export async function explainListQueries(
  pool: pg.Pool,
  url: string,
  apiKey: string,
  statements: CapturedStatement[],
  records: number,
): Promise<PlanSummary[]> {
  const plans: PlanSummary[] = [];
  for (const s of statements) {
    const counted = await getPage(url, apiKey, `${s.query}&count=true`);
    const label = (
      LIST_QUERIES.find((q) => q.id === s.id) ?? missing('LIST_QUERIES.find((q) => q.id === s.id)')
    ).label.slice(0, 3);
    plans.push({
      statement: `${label} ${decodeURIComponent(s.query)} pageSize=50 at ${records.toLocaleString('en-US')} records`,
      kind: 'list-query',
      matchingRows: counted.meta.total ?? Number.NaN,
      ...(await explain(pool, s.text, s.values)),
      sql: { text: s.text, values: s.values },
    });
  }
  return plans;
}

/** Copies each plan's index, top node and time into the series of the same size. */
export function attachPlans(
  series: ListLatency,
  statements: CapturedStatement[],
  plans: PlanSummary[],
): void {
  statements.forEach((s, i) => {
    const plan = plans[i];
    const query = series.queries.find((q) => q.id === s.id);
    if (plan && query) {
      query.plan = { indexesUsed: plan.indexesUsed, topNode: plan.topNode, executionMs: plan.executionMs };
    }
  });
}

/**
 * The relations series (step 9, README): reads across RELATION fields sent one at a time to
 * the service — a record with two ONE fields expanded, a page of a company's people, a list
 * filtered on the linked company's tier — the EXPLAIN of the statements they send, captured
 * from its SQL trace, and the batch-link scenario (`POST /records/links/batch`).
 */
import { missing } from '@crm/domain';
import type { RequestSpec } from 'autocannon';
import type pg from 'pg';
import { createRandom } from './data.ts';
import { explain, type PlanSummary } from './explain.ts';
import { getJson } from './http-client.ts';
import { withOtherLoad } from './load.ts';
import { recordStatementsOf } from './parity.ts';
import type { RelationFolders, RelationPlan, SeededRelations } from './relations-seed.ts';
import type { Measurement, Run, Scenario } from './scenarios.ts';
import { percentile, round } from './time.ts';

/** The samples the series rotate over, chosen from what was seeded. */
export interface RelationSamples {
  peopleFolderId: string;
  /** People with both ONE values (`account` and `manager`). */
  people: string[];
  /** Companies with a typical number of people: between the median and the 75th percentile. */
  typical: { ids: string[]; minPeople: number; maxPeople: number };
  /** The company with the most people. */
  largest: { id: string; people: number };
}

/** Picks the samples: 200 people, up to 50 typical companies, the largest company. */
export function relationSamples(
  plan: RelationPlan,
  seeded: SeededRelations,
  folders: RelationFolders,
  seed: number,
): RelationSamples {
  const random = createRandom(seed);
  const people: string[] = [];
  for (let i = 0; i < 200 && seeded.settled.length > 0; i++) {
    people.push(
      seeded.settled[Math.floor(random() * seeded.settled.length)] ??
        missing('seeded.settled[Math.floor(random() * seeded.settled.length)]'),
    );
  }
  const bySize = seeded.companySizes.map((size, i) => ({ size, i })).sort((a, b) => a.size - b.size);
  const median = percentile(
    bySize.map((c) => c.size),
    50,
  );
  const upper = percentile(
    bySize.map((c) => c.size),
    75,
  );
  const middle = bySize.filter((c) => c.size >= median && c.size <= upper && c.size > 0);
  const step = Math.max(1, middle.length / 50);
  const typical: number[] = [];
  for (let at = 0; at < middle.length && typical.length < 50; at += step)
    typical.push((middle[Math.floor(at)] ?? missing('middle[Math.floor(at)]')).i);
  const largest = bySize[bySize.length - 1] ?? { size: 0, i: 0 };
  return {
    peopleFolderId: folders.peopleFolderId,
    people,
    typical: {
      ids: typical.map((i) => plan.companyIds[i] ?? missing('plan.companyIds[i]')),
      minPeople:
        typical.length > 0
          ? Math.min(...typical.map((i) => seeded.companySizes[i] ?? missing('seeded.companySizes[i]')))
          : 0,
      maxPeople:
        typical.length > 0
          ? Math.max(...typical.map((i) => seeded.companySizes[i] ?? missing('seeded.companySizes[i]')))
          : 0,
    },
    largest: {
      id: plan.companyIds[largest.i] ?? missing('plan.companyIds[largest.i]'),
      people: largest.size,
    },
  };
}

export interface RelationQuery {
  id: 'expand' | 'related' | 'hop' | 'related-large';
  label: string;
  /** p95 each series in the target must stay under, at 1,000,000 records. */
  targetMs?: number;
  /** The path and query of the i-th request, varied from one to the next. */
  path(i: number, s: RelationSamples): string | undefined;
  /** Rows a response holds: linked records expanded, or records on the page. */
  rows(body: Body): number;
}

interface Body {
  data: { expanded?: Record<string, unknown> } | unknown[];
  meta?: { nextCursor: string | null; total?: number };
}

const pick = <T>(values: readonly T[], i: number) =>
  values.length === 0 ? undefined : values[i % values.length];
const hop = (folderId: string) =>
  `/api/v1/records?folderId=${folderId}&filter[account.data.tier]=Gold&sort=-updatedAt&pageSize=50`;

export const RELATION_QUERIES: RelationQuery[] = [
  {
    id: 'expand',
    label: 'GET /records/{id}?expand=account,manager',
    targetMs: 10,
    path: (i, s) => {
      const id = pick(s.people, i);
      return id && `/api/v1/records/${id}?expand=account,manager`;
    },
    rows: (body) => {
      const expanded = (body.data as { expanded?: Record<string, unknown> }).expanded ?? {};
      return Object.values(expanded).filter((v) => v !== null).length;
    },
  },
  {
    id: 'related',
    label: 'GET /records/{company}/related/people?pageSize=50',
    targetMs: 20,
    path: (i, s) => {
      const id = pick(s.typical.ids, i);
      return id && `/api/v1/records/${id}/related/people?pageSize=50`;
    },
    rows: (body) => (body.data as unknown[]).length,
  },
  {
    id: 'hop',
    label: 'GET /records?folderId=<People>&filter[account.data.tier]=Gold&sort=-updatedAt',
    targetMs: 50,
    path: (_, s) => hop(s.peopleFolderId),
    rows: (body) => (body.data as unknown[]).length,
  },
  {
    id: 'related-large',
    label: 'related people of the largest company',
    path: (_, s) => `/api/v1/records/${s.largest.id}/related/people?pageSize=50`,
    rows: (body) => (body.data as unknown[]).length,
  },
];

async function get(url: string, apiKey: string, path: string): Promise<Body> {
  const { status, body } = await getJson<Partial<Body>>(url, path, apiKey);
  if (status !== 200 || body.data === undefined) {
    throw new Error(`GET ${path} answered ${status}: ${JSON.stringify(body)}`);
  }
  return body as Body;
}

export interface RelationQueryLatency {
  id: RelationQuery['id'];
  label: string;
  /** A request as sent (the first measured one). */
  example: string;
  inTarget: boolean;
  targetMs?: number;
  requests: number;
  /** True when the read used up its share of the time budget before all its requests were sent. */
  cutShort: boolean;
  p50: number;
  p95: number;
  max: number;
  /** Median rows a response held (expanded records, or records on the page). */
  rows: number;
  meetsTarget?: boolean;
  /** The plans of the statements the service sent for a sample request (all of them, summed time). */
  plan?: { indexesUsed: string[]; topNode: string; executionMs: number };
}

export interface RelationLatency {
  records: number;
  requestsPerQuery: number;
  /** Time cap of the series: each read gets an equal share. */
  budgetMs: number;
  /** Cores other processes used while the series ran (Linux only). */
  otherCores?: number;
  queries: RelationQueryLatency[];
}

/**
 * After one unmeasured pass (four requests of each query), sends `count` requests of each
 * query, one at a time and in turn, and times each round trip (ms). A query that has spent
 * its share of `budgetMs` is sent no more, so one slow read does not leave the others with
 * few samples. A query without samples (nothing seeded for it) is left out.
 */
export async function measureRelations(
  url: string,
  apiKey: string,
  records: number,
  samples: RelationSamples,
  count: number,
  budgetMs: number,
): Promise<RelationLatency> {
  const queries = RELATION_QUERIES.filter((q) => q.path(0, samples) !== undefined);
  const measured = new Map<RelationQuery['id'], { ms: number; rows: number }[]>(
    queries.map((q) => [q.id, []]),
  );
  const once = async (q: RelationQuery, i: number) => {
    const path = q.path(i, samples) ?? missing('q.path(i, samples)');
    const t0 = performance.now();
    const body = await get(url, apiKey, path);
    const ms = performance.now() - t0;
    const rows = q.rows(body);
    if (q.id === 'expand' && rows !== 2) {
      throw new Error(`GET ${path}: expected both ONE fields expanded, got ${JSON.stringify(body.data)}`);
    }
    return { ms, rows };
  };
  for (let i = 0; i < 4; i++) for (const q of queries) await once(q, i);
  const share = budgetMs / queries.length;
  const spent = new Map(queries.map((q) => [q.id, 0]));
  const { otherCores } = await withOtherLoad(async () => {
    for (let i = 0; i < count; i++) {
      for (const q of queries) {
        if ((spent.get(q.id) ?? missing('spent.get(q.id)')) > share) continue;
        const t0 = performance.now();
        (measured.get(q.id) ?? missing('measured.get(q.id)')).push(await once(q, i));
        spent.set(q.id, (spent.get(q.id) ?? missing('spent.get(q.id)')) + performance.now() - t0);
      }
    }
  });
  return {
    records,
    requestsPerQuery: count,
    budgetMs,
    ...(otherCores === undefined ? {} : { otherCores }),
    queries: queries.map((q): RelationQueryLatency => {
      const of = measured.get(q.id) ?? missing('measured.get(q.id)');
      const sorted = of.map((s) => s.ms).sort((a, b) => a - b);
      const p95 = round(percentile(sorted, 95));
      return {
        id: q.id,
        label: q.label,
        example: q.path(0, samples) ?? missing('q.path(0, samples)'),
        inTarget: q.targetMs !== undefined,
        ...(q.targetMs === undefined ? {} : { targetMs: q.targetMs }),
        requests: of.length,
        cutShort: of.length < count,
        p50: round(percentile(sorted, 50)),
        p95,
        max: round(sorted[sorted.length - 1] ?? Number.NaN),
        rows: percentile(
          of.map((s) => s.rows).sort((a, b) => a - b),
          50,
        ),
        ...(q.targetMs === undefined ? {} : { meetsTarget: of.length > 0 && p95 < q.targetMs }),
      };
    }),
  };
}

/** A statement on records the service sent for a sample request of a series, with its parameters. */
export interface RelationStatement {
  id: RelationQuery['id'];
  path: string;
  /** Its place among the request's statements on records, e.g. `2/2`. */
  position: string;
  text: string;
  values: unknown[];
}

/**
 * Sends one sample request of each series to the service with its SQL trace switched back on
 * (recordStatementsOf), and keeps every statement on records it sent (the key, the rate limit
 * and the folders aside) with its parameters.
 */
export async function captureRelationStatements(
  url: string,
  apiKey: string,
  service: { pid: number; traceFile: string },
  samples: RelationSamples,
): Promise<RelationStatement[]> {
  const requests = RELATION_QUERIES.flatMap((q) => {
    const path = q.path(0, samples);
    return path === undefined ? [] : [{ id: q.id, path }];
  });
  const traced = await recordStatementsOf(
    service,
    requests.map((r) => r.path),
    (path) => get(url, apiKey, path),
  );
  return requests.flatMap(({ id, path }, i) => {
    const statements = traced[i] ?? missing('traced[i]');
    return statements.map((s, n) => ({ id, path, position: `${n + 1}/${statements.length}`, ...s }));
  });
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of each captured statement with its captured parameters. A page
 * statement's matching rows are the service's own `count=true` of the same request; a lookup's
 * are the record ids it names.
 */
export async function explainRelations(
  pool: pg.Pool,
  url: string,
  apiKey: string,
  statements: RelationStatement[],
  records: number,
): Promise<PlanSummary[]> {
  const plans: PlanSummary[] = [];
  for (const s of statements) {
    const isPage = /\blimit\b/i.test(s.text) && s.id !== 'expand';
    const matchingRows = isPage
      ? ((await get(url, apiKey, `${s.path}&count=true`)).meta?.total ?? Number.NaN)
      : s.values.filter((v) => typeof v === 'string' && v.startsWith('rec_')).length;
    const label = (
      RELATION_QUERIES.find((q) => q.id === s.id) ?? missing('RELATION_QUERIES.find((q) => q.id === s.id)')
    ).label;
    plans.push({
      statement: `${label}, statement ${s.position} on records, at ${records.toLocaleString('en-US')} records`,
      kind: 'relation',
      matchingRows,
      ...(await explain(pool, s.text, s.values)),
      sql: { text: s.text, values: s.values },
    });
  }
  return plans;
}

/** Each series gets the indexes of all its statements' plans, the top node of its last and their summed time. */
export function attachRelationPlans(
  series: RelationLatency,
  statements: RelationStatement[],
  plans: PlanSummary[],
): void {
  for (const query of series.queries) {
    const own = plans.filter((_, i) => statements[i]?.id === query.id);
    if (own.length === 0) continue;
    query.plan = {
      indexesUsed: [...new Set(own.flatMap((p) => p.indexesUsed))],
      topNode: (own[own.length - 1] ?? missing('own[own.length - 1]')).topNode,
      executionMs: round(
        own.reduce((sum, p) => sum + p.executionMs, 0),
        2,
      ),
    };
  }
}

/** Items per request of the batch-link scenario: the most a batch takes. */
export const LINK_BATCH_SIZE = 100;
/** Links a second the service must make through `POST /records/links/batch`, events included. */
export const LINK_TARGET = 5000;

/** The batch-link items sent, by field. */
export type LinkMix = { account: number; manager: number; previousCompanies: number };

/**
 * What a batch-link run links: `links`, MANY ↔ MANY (`previousCompanies`: rows of the links
 * table and their events, what the target is about), or `one-values`, ONE fields (`account`,
 * `manager`: each link also writes the person's `data`, with a record.updated event).
 */
export type LinkKind = 'links' | 'one-values';

/**
 * The links the scenario makes, each a new one. For `one-values`, alternately: a person
 * without a company gets one (`account`, drawn by weight), and a person without a manager gets
 * one (`manager`, a person who has both already); once those run out (small trials),
 * `previousCompanies` links. For `links`, `previousCompanies` links of people who have both to
 * companies they were never linked to. The people without a company (who have no manager
 * either) are split between the two, so each person gets one value (one row update) and no
 * two batches wait for the same person's lock; people who get a value are never the end of
 * another link (locked FOR SHARE while another batch holds them FOR UPDATE), so concurrent
 * batches cannot deadlock on each other.
 */
/**
 * Most `previousCompanies` links (alumni) the scenario lets a company reach: the field holds
 * 10,000 at most (MAX_LINKS_PER_FIELD in the domain), and a side near it is counted by every
 * batch. At 1,000,000 records the largest of 5,373 companies has about 5,500 (the seed's draws
 * by weight, simulated); on a small trial's few companies, the largest would pass the limit
 * within a minute and fail its items with 409.
 */
const MAX_COMPANY_ALUMNI = 8_000;

function linkItems(plan: RelationPlan, seeded: SeededRelations, seed: number, kind: LinkKind) {
  const random = createRandom(seed);
  /** Alumni per company index, seeded and sent so far (`previousPairs` holds `<person> <company index>`). */
  const alumni = new Map<number, number>();
  for (const pair of seeded.previousPairs) {
    const c = Number(pair.slice(pair.indexOf(' ') + 1));
    alumni.set(c, (alumni.get(c) ?? 0) + 1);
  }
  const shuffled = (ids: string[]) => {
    const out = [...ids];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [out[i], out[j]] = [out[j] ?? missing('out[j]'), out[i] ?? missing('out[i]')];
    }
    return out;
  };
  const unlinked = shuffled(seeded.withoutAccount);
  const accounts = unlinked.filter((_, i) => i % 2 === 0);
  const noAccount = new Set(seeded.withoutAccount);
  const managers = shuffled([
    ...unlinked.filter((_, i) => i % 2 === 1),
    ...seeded.withoutManager.filter((id) => !noAccount.has(id)),
  ]);
  const settled = seeded.settled;
  if (settled.length === 0) throw new Error('batch-link: no person has both a company and a manager');
  const mix: LinkMix = { account: 0, manager: 0, previousCompanies: 0 };
  let a = 0;
  let m = 0;
  let n = 0;
  const next = (): { from: string; field: keyof LinkMix; to: string } => {
    n++;
    if (kind === 'one-values' && (n % 2 === 0 || m >= managers.length) && a < accounts.length) {
      mix.account++;
      return {
        from: accounts[a++] ?? missing('accounts[a++]'),
        field: 'account',
        to: plan.companyIds[plan.pickCompany()] ?? missing('plan.companyIds[plan.pickCompany()]'),
      };
    }
    if (kind === 'one-values' && m < managers.length && settled.length > 0) {
      mix.manager++;
      return {
        from: managers[m++] ?? missing('managers[m++]'),
        field: 'manager',
        to:
          settled[Math.floor(random() * settled.length)] ??
          missing('settled[Math.floor(random() * settled.length)]'),
      };
    }
    // Pairs seeded or made earlier (by this run or an earlier one: small trials come here in
    // both kinds) are skipped, and so are companies with MAX_COMPANY_ALUMNI.
    for (let tries = 1; ; tries++) {
      if (tries > 10_000)
        throw new Error('batch-link: no company has room for another previousCompanies link');
      const from =
        settled[Math.floor(random() * settled.length)] ??
        missing('settled[Math.floor(random() * settled.length)]');
      const c = plan.pickCompany();
      const key = `${from} ${c}`;
      if (seeded.previousPairs.has(key) || (alumni.get(c) ?? 0) >= MAX_COMPANY_ALUMNI) continue;
      seeded.previousPairs.add(key);
      alumni.set(c, (alumni.get(c) ?? 0) + 1);
      mix.previousCompanies++;
      return { from, field: 'previousCompanies', to: plan.companyIds[c] ?? missing('plan.companyIds[c]') };
    }
  };
  return { next, mix };
}

/** What the batch-link scenario counted from the answers. */
export interface LinkAnswers {
  /** Items answered 201 (a new link) and 200 (the link was there), and items that failed. */
  created: number;
  existing: number;
  failed: number;
  /** How many failed items answered each status and message, for the check that refuses them. */
  failures: Record<string, number>;
}

/**
 * `POST /records/links/batch` with 100 new links a request (linkItems). Every answer is
 * counted by item status; the items' mix is kept.
 */
export function batchLinkScenario(
  plan: RelationPlan,
  seeded: SeededRelations,
  seed: number,
  kind: LinkKind,
): Scenario & { answers: LinkAnswers; mix: LinkMix } {
  const items = linkItems(plan, seeded, seed, kind);
  const answers: LinkAnswers = { created: 0, existing: 0, failed: 0, failures: {} };
  return {
    id: 'batch-link',
    label: batchLinkLabel(kind),
    target: 0,
    minWarmup: 5,
    answers,
    mix: items.mix,
    requests: () => [
      {
        method: 'POST',
        setupRequest: (request) => {
          const batch = Array.from({ length: LINK_BATCH_SIZE }, items.next);
          return { ...request, path: '/api/v1/records/links/batch', body: JSON.stringify({ items: batch }) };
        },
        onResponse: (status, body) => {
          if (status !== 200) return;
          const { data } = JSON.parse(body) as { data: { status: number; error?: { message?: string } }[] };
          for (const item of data) {
            if (item.status === 201) answers.created++;
            else if (item.status === 200) answers.existing++;
            else {
              answers.failed++;
              // Record ids in messages make each one distinct: the kind of failure is what counts.
              const kind = `${item.status} ${(item.error?.message ?? '').replace(/rec_\w+/g, 'rec_…')}`;
              answers.failures[kind] = (answers.failures[kind] ?? 0) + 1;
            }
          }
        },
      } satisfies RequestSpec,
    ],
  };
}

/**
 * Links of the ONE relations (`relationIds`) and of the others, record.linked events, and
 * record.updated events with the values they name as changed, of the workspace.
 */
export async function countLinks(pool: pg.Pool, workspaceId: string, relationIds: string[]) {
  const { rows } = await pool.query<{
    one: string;
    many: string;
    linked: string;
    updated: string;
    changed: string;
  }>(
    `select (select count(*) from record_links where workspace_id = $1 and relation_id = any($2)) as one,
            (select count(*) from record_links where workspace_id = $1 and not relation_id = any($2)) as many,
            (select count(*) from events where workspace_id = $1 and type = 'record.linked') as linked,
            u.updated, u.changed
       from (select count(*) as updated, coalesce(sum(jsonb_array_length(payload -> 'changedFields')), 0) as changed
               from events where workspace_id = $1 and type = 'record.updated') as u`,
    [workspaceId, relationIds],
  );
  const row = rows[0] ?? missing('rows[0]');
  return {
    oneLinks: Number(row.one),
    manyLinks: Number(row.many),
    linkedEvents: Number(row.linked),
    updatedEvents: Number(row.updated),
    changedValues: Number(row.changed),
  };
}

const batchLinkLabel = (kind: LinkKind) =>
  `POST /records/links/batch (${LINK_BATCH_SIZE} items, ${kind === 'links' ? 'MANY ↔ MANY' : 'ONE values'})`;

export interface BatchLinkResult {
  id: 'batch-link';
  kind: LinkKind;
  label: string;
  batchSize: number;
  /** Both runs against the service (a warm-up before each). */
  batch: Measurement;
  /** Links made a second: 2xx answers × items a request. */
  linksPerSecond: number;
  /** The target is about links (`links`); ONE values are reported beside it. */
  target: number | null;
  meetsTarget: boolean | null;
  /** The items sent, by field (warm-ups included). */
  mix: LinkMix;
  checks: Record<string, number>;
  redone?: { target: 'batch'; discarded: Run }[];
}

/**
 * Every item must have made a new link (201: none failed, none already there), with one
 * record.linked event each; each ONE link must have changed its person's `data`, with one
 * record.updated event naming that one value (each person gets one); the links are at least
 * as many as the answers say (requests still in flight when a run stops may add more).
 */
export function batchLinkChecks(
  before: Awaited<ReturnType<typeof countLinks>>,
  after: Awaited<ReturnType<typeof countLinks>>,
  answers: LinkAnswers,
): Record<string, number> {
  const checks = {
    linksAnswered: answers.created,
    itemsAlreadyLinked: answers.existing,
    failedItems: answers.failed,
    linksMade: after.oneLinks + after.manyLinks - before.oneLinks - before.manyLinks,
    oneLinksMade: after.oneLinks - before.oneLinks,
    linkedEvents: after.linkedEvents - before.linkedEvents,
    updatedEvents: after.updatedEvents - before.updatedEvents,
    valuesChanged: after.changedValues - before.changedValues,
  };
  if (
    checks.failedItems > 0 ||
    checks.itemsAlreadyLinked > 0 ||
    checks.linkedEvents !== checks.linksMade ||
    checks.valuesChanged !== checks.oneLinksMade ||
    checks.updatedEvents !== checks.oneLinksMade ||
    checks.linksMade < checks.linksAnswered
  ) {
    throw new Error(
      `batch-link did not make every link with its events: ${JSON.stringify(checks)}; failed items: ${JSON.stringify(answers.failures)}`,
    );
  }
  return checks;
}

export function batchLinkResult(
  kind: LinkKind,
  batch: Measurement,
  mix: LinkMix,
  checks: Record<string, number>,
  redone: BatchLinkResult['redone'],
): BatchLinkResult {
  const linksPerSecond = round(batch.completedPerSecond * LINK_BATCH_SIZE);
  return {
    id: 'batch-link',
    kind,
    label: batchLinkLabel(kind),
    batchSize: LINK_BATCH_SIZE,
    batch,
    linksPerSecond,
    target: kind === 'links' ? LINK_TARGET : null,
    meetsTarget: kind === 'links' ? linksPerSecond >= LINK_TARGET : null,
    mix: { ...mix },
    checks,
    ...(redone && redone.length > 0 ? { redone } : {}),
  };
}

/** The `relations` key of the results. */
export interface RelationsResult {
  records: number;
  people: number;
  companies: number;
  links: SeededRelations['links'];
  /** Seconds the folders, companies and links took to make, ANALYZE included. */
  seedSeconds: number;
  /** Of those, the parts of seedRelations. */
  seedParts: SeededRelations['seconds'];
  samples: {
    people: number;
    typicalCompanies: number;
    typicalPeople: string;
    largestCompanyPeople: number;
  };
  series: RelationLatency;
  /** Batch link of MANY ↔ MANY links (the target), then of ONE values. */
  batchLink?: BatchLinkResult[];
  plans: PlanSummary[];
}

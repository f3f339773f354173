import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { missing } from '@crm/domain';
import type { BatchCreateResult } from './batch.ts';
import type { PlanSummary } from './explain.ts';
import type { ListLatency } from './list-queries.ts';
import type { ParityReport } from './parity.ts';
import type { RecordPatchResult } from './record-patch.ts';
import type { BatchLinkResult, RelationsResult } from './relations.ts';
import type { Measurement, Run, Scenario } from './scenarios.ts';
import type { SearchLatency } from './search.ts';

export interface ScenarioResult {
  id: Scenario['id'];
  label: string;
  target: number;
  /** The order of the measured runs (A B B A). */
  order: Measurement['target'][];
  service: Measurement;
  bare: Measurement;
  /** service req/s ÷ bare req/s. */
  ratio: number;
  meetsTarget: boolean;
  /** The floor (the resource statement alone), for get-one, list and create. */
  floor?: Measurement;
  /** service req/s ÷ floor req/s. */
  floorRatio?: number;
  floorTarget?: number;
  meetsFloorTarget?: boolean;
  /** What the scenario verified in the database after its runs (deal-move: its events). */
  checks?: Record<string, number>;
  /** Runs disturbed by other processes, run again: the discarded run of each. */
  redone?: { target: Measurement['target']; discarded: Run }[];
}

export interface SeedTiming {
  /** What was inserted, e.g. `100,000 records` or `2,000 deals, 20,000 tasks`. */
  rows: string;
  seconds: number;
}

export interface BenchResults {
  startedAt: string;
  finishedAt: string;
  seconds: number;
  machine: { cpus: number; node: string; platform: string };
  database: string;
  /** The database server's `shared_buffers` (embedded: set by the benchmark, see database.ts). */
  sharedBuffers?: string;
  settings: {
    connections: number;
    duration: number;
    warmup: number;
    searchRequests: number;
    listRequests: number;
    relationRequests: number;
  };
  seeding: SeedTiming[];
  /** What the parity check compared, and statements sent on different kinds of pools. */
  parity: ParityReport;
  scenarios: ScenarioResult[];
  /** Records a second through `POST /records/batch` beside `POST /records` (when run). */
  batchCreate?: BatchCreateResult;
  /** `PATCH /records/:id` through the service (when run). */
  recordPatch?: RecordPatchResult;
  search: SearchLatency[];
  /** Filters, sorts, counts and a cursor page of records, at 100k and at 1M records. */
  lists: ListLatency[];
  plans: PlanSummary[];
  /** Reads across relations and batch links at 1M records (step 9), with their plans. */
  relations?: RelationsResult;
}

/** A text table: the first `left` columns aligned left, the others right. */
function table(header: string[], rows: string[][], left = 1): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) =>
        i < left
          ? c.padEnd(widths[i] ?? missing('widths[i]'))
          : c.padStart(widths[i] ?? missing('widths[i]')),
      )
      .join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** The service's peak resident memory under load stays below this, in megabytes (10^6 bytes). */
const RSS_TARGET_MB = 250;
const RSS_TARGET_MIB = (RSS_TARGET_MB * 1e6) / 2 ** 20;

/** Cores used by other processes during a measured run above which the table warns. */
const OTHER_LOAD_WARNING = 0.25;

const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '-');

export function formatResults(results: BenchResults): string {
  const out: string[] = [];
  const s = results.settings;
  out.push(
    `CRM bench: ${results.machine.cpus} CPUs, Node ${results.machine.node}, PostgreSQL ${results.database}` +
      `${results.sharedBuffers ? ` (shared_buffers ${results.sharedBuffers})` : ''}; ` +
      `${s.connections} connections, ${s.duration} s measured per run, ` +
      `2 runs per server in A-B-B-A order, A-B-C-C-B-A with the floor (first warm-up ${s.warmup} s, second 1 s); figures are the means of the 2 runs`,
  );
  out.push(`Seeding: ${results.seeding.map((t) => `${t.rows} in ${fixed(t.seconds)} s`).join('; ')}`);
  out.push(
    `Parity: same JSON and the same ${results.parity.statements} SQL statements over ${results.parity.requests.length} requests`,
  );
  for (const difference of results.parity.poolDifferences) out.push(`  WARNING: ${difference}`);
  out.push('');
  const rows: string[][] = [];
  for (const r of results.scenarios) {
    const against = (m: Measurement, target: number | undefined, meets: boolean | undefined) =>
      m.target === 'service' || target === undefined
        ? ['', '', '']
        : [
            // Truncated, not rounded, so a ratio just under its target never prints as reaching it.
            `${fixed(Math.floor((r.service.requestsPerSecond / m.requestsPerSecond) * 100) / 100, 2)}x`,
            `>= ${target}x ${meets ? 'PASS' : 'FAIL'}`,
            r.service.cpuPerRequestUs && m.cpuPerRequestUs
              ? `${fixed(m.cpuPerRequestUs / r.service.cpuPerRequestUs, 2)}x`
              : '',
          ];
    for (const m of [r.service, r.bare, ...(r.floor ? [r.floor] : [])]) {
      rows.push([
        m.target === 'service' ? r.label : '',
        `${m.target}${r.order[0] === m.target ? ' (1st)' : ''}`,
        fixed(m.requestsPerSecond, 0),
        fixed(m.latencyP50, 0),
        fixed(m.latencyP99, 0),
        m.cpuPerRequestUs === undefined ? '-' : fixed(m.cpuPerRequestUs, 0),
        m.databaseCpuPerRequestUs === undefined ? '-' : fixed(m.databaseCpuPerRequestUs, 0),
        m.peakRssMiB === undefined ? '-' : fixed(m.peakRssMiB, 0),
        m.statementsPerRequest === undefined ? '-' : fixed(m.statementsPerRequest, 2),
        m.transactionsPerRequest === undefined ? '-' : fixed(m.transactionsPerRequest, 2),
        String(m.non2xx),
        ...(m.target === 'floor'
          ? against(m, r.floorTarget, r.meetsFloorTarget)
          : against(m, r.target, r.meetsTarget)),
      ]);
    }
  }
  out.push(
    table(
      [
        'Scenario',
        'Server',
        'req/s',
        'p50 ms',
        'p99 ms',
        'CPU µs/req',
        'PG µs/req',
        'RSS MiB',
        'stmt/req',
        'tx/req',
        'non-2xx',
        'svc/x',
        'target',
        'CPU x/svc',
      ],
      rows,
    ),
  );
  out.push(
    "CPU µs/req: CPU time of the servers' processes per response during the measured runs; PG µs/req the " +
      "same of PostgreSQL's processes; RSS MiB the server's peak resident memory during its runs; stmt/req " +
      'and tx/req the statements and transactions the server sent PostgreSQL per response (a statement ' +
      'outside BEGIN … COMMIT is a transaction of its own). svc/x is ' +
      'the service against the bare server (the same SQL) or the floor (the resource statement alone, no key ' +
      'lookup and no rate limit); CPU x/svc is the ratio the two would reach if CPU alone limited both.',
  );
  const peaks = results.scenarios
    .map((r) => r.service.peakRssMiB)
    .filter((v): v is number => v !== undefined);
  if (peaks.length > 0) {
    const peak = Math.max(...peaks);
    out.push(
      `Service peak resident memory over all scenarios: ${fixed(peak, 0)} MiB; target under ` +
        `${RSS_TARGET_MB} MB (${fixed(RSS_TARGET_MIB, 0)} MiB) ${peak < RSS_TARGET_MIB ? 'PASS' : 'FAIL'}`,
    );
  }
  const disturbed = results.scenarios
    .map((r) => ({
      id: r.id,
      most: Math.max(
        0,
        ...[...r.service.runs, ...r.bare.runs, ...(r.floor?.runs ?? [])].map((run) => run.otherCores ?? 0),
      ),
    }))
    .filter((r) => r.most >= OTHER_LOAD_WARNING);
  const redone = results.scenarios.flatMap((r) => (r.redone ?? []).map((x) => `${r.id} ${x.target}`));
  if (redone.length > 0) {
    out.push(`Runs disturbed by other processes and run again (the quieter kept): ${redone.join(', ')}`);
  }
  if (disturbed.length > 0) {
    out.push(
      `WARNING: other processes used CPU during measured runs (up to ${disturbed
        .map((r) => `${fixed(r.most, 2)} cores in ${r.id}`)
        .join(', ')}); those ratios are less reliable (per-run otherCores in the JSON)`,
    );
  }
  for (const r of results.scenarios) {
    if (r.checks) {
      out.push(
        `${r.id} checks: ${Object.entries(r.checks)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')}`,
      );
    }
  }
  if (results.batchCreate) out.push('', ...formatBatch(results.batchCreate));
  if (results.recordPatch) out.push('', ...formatRecordPatch(results.recordPatch));
  out.push('');
  out.push('q search through the service (sequential, pageSize=50), latency in ms:');
  const searchRows: string[][] = [];
  for (const l of results.search) {
    searchRows.push([
      l.records.toLocaleString('en-US'),
      `${l.requests}${l.cutShort ? ' (budget hit)' : ''}`,
      fixed(l.p50),
      fixed(l.p95),
      fixed(l.max),
      ...(['common', 'medium', 'rare', 'none'] as const).map(
        (k) => `${fixed(l.byKind[k].p50)} / ${fixed(l.byKind[k].p95)}`,
      ),
    ]);
  }
  out.push(
    table(
      [
        'Records',
        'Requests',
        'p50',
        'p95',
        'max',
        'common p50/p95',
        'medium p50/p95',
        'rare p50/p95',
        'no-match p50/p95',
      ],
      searchRows,
    ),
  );
  const largest = results.search[results.search.length - 1];
  if (largest) {
    out.push('');
    out.push(`Per term at ${largest.records.toLocaleString('en-US')} records (median ms, rows returned):`);
    out.push(
      table(
        ['Term', 'Kind', 'p50 ms', 'rows'],
        largest.byTerm.map((t) => [t.term, t.kind, fixed(t.p50), String(t.rows)]),
      ),
    );
  }
  if (results.lists.length > 0) out.push('', ...formatLists(results.lists));
  if (results.relations) out.push('', ...formatRelations(results.relations));
  for (const plan of [...results.plans, ...(results.relations?.plans ?? [])]) {
    out.push('');
    out.push(
      `EXPLAIN (ANALYZE, BUFFERS) ${plan.statement} (${plan.kind}, ${plan.matchingRows} matching rows): ` +
        `${plan.topNode}, execution ${fixed(plan.executionMs, 2)} ms, planning ${fixed(plan.planningMs, 2)} ms, ` +
        (plan.kind === 'tasks' || plan.kind === 'list-query' || plan.kind === 'relation'
          ? ''
          : `records_search_idx ${plan.usesSearchIndex ? 'USED' : 'NOT used'}, `) +
        `indexes: ${plan.indexesUsed.join(', ') || 'none'}`,
    );
    if (plan.sql) out.push(`    SQL: ${plan.sql.text}`, `    parameters: ${JSON.stringify(plan.sql.values)}`);
    for (const line of plan.outline) out.push(`    ${line}`);
  }
  return out.join('\n');
}

/** The relations step: one row per read series, then the batch-link scenario. */
function formatRelations(r: RelationsResult): string[] {
  const series = r.series;
  const rows = series.queries.map((q) => [
    q.label,
    `${q.requests}${q.cutShort ? ' (budget hit)' : ''}`,
    fixed(q.p50),
    fixed(q.p95),
    fixed(q.max),
    String(q.rows),
    q.plan ? q.plan.indexesUsed.join(', ') || 'none' : '',
    q.plan ? fixed(q.plan.executionMs, 2) : '',
    q.targetMs === undefined ? '(not in target)' : `< ${q.targetMs} ${q.meetsTarget ? 'PASS' : 'FAIL'}`,
  ]);
  const out = [
    `Relations through the service at ${r.records.toLocaleString('en-US')} records (${r.people.toLocaleString('en-US')} people, ` +
      `${r.companies.toLocaleString('en-US')} companies; ${r.links.total.toLocaleString('en-US')} links: account ` +
      `${r.links.account.toLocaleString('en-US')}, manager ${r.links.manager.toLocaleString('en-US')}, previousCompanies ` +
      `${r.links.previousCompanies.toLocaleString('en-US')}; made in ${fixed(r.seedSeconds)} s), sequential, in turn, latency in ms:`,
    table(
      ['Read', 'Requests', 'p50', 'p95', 'max', 'rows', 'index (EXPLAIN)', 'plan ms', 'p95 target'],
      rows,
    ),
    `rows: median expanded records (expand) or records on the page; samples: ${r.samples.people} people with both ONE ` +
      `values, ${r.samples.typicalCompanies} companies of ${r.samples.typicalPeople} people (median to 75th percentile), the ` +
      `largest company with ${r.samples.largestCompanyPeople.toLocaleString('en-US')} people. index (EXPLAIN): the indexes ` +
      'of the plans of every statement on records the service sent for a sample request, plan ms their summed execution (full plans below).',
  ];
  if ((series.otherCores ?? 0) >= OTHER_LOAD_WARNING) {
    out.push(
      `WARNING: other processes used ${fixed(series.otherCores ?? missing('series.otherCores'), 2)} cores while the relation reads ran; their latencies are less reliable`,
    );
  } else if (series.otherCores !== undefined) {
    out.push(`Other processes used ${fixed(series.otherCores, 2)} cores meanwhile.`);
  }
  const links = r.batchLink ?? [];
  if (links.length > 0) {
    const perLink = (b: BatchLinkResult, us: number | undefined) =>
      us === undefined ? '-' : fixed(us / b.batchSize, 0);
    const most = Math.max(0, ...links.flatMap((b) => b.batch.runs.map((run) => run.otherCores ?? 0)));
    out.push(
      '',
      `Linking records through the service, record.linked (and for ONE values record.updated) events included (2 runs each, ${(links[0] ?? missing('links[0]')).batchSize} items a batch):`,
      table(
        [
          'Scenario',
          'req/s',
          'links/s',
          'p50 ms',
          'p99 ms',
          'CPU µs/link',
          'PG µs/link',
          'non-2xx',
          'target',
        ],
        links.map((b) => [
          b.label,
          fixed(b.batch.requestsPerSecond, 0),
          fixed(b.linksPerSecond, 0),
          fixed(b.batch.latencyP50, 0),
          fixed(b.batch.latencyP99, 0),
          perLink(b, b.batch.cpuPerRequestUs),
          perLink(b, b.batch.databaseCpuPerRequestUs),
          String(b.batch.non2xx),
          b.target === null ? '-' : `>= ${b.target} ${b.meetsTarget ? 'PASS' : 'FAIL'}`,
        ]),
      ),
      ...links.map(
        (b) =>
          `${b.kind}: items sent: account ${b.mix.account}, manager ${b.mix.manager}, previousCompanies ${b.mix.previousCompanies}; ` +
          `checks: ${Object.entries(b.checks)
            .map(([k, v]) => `${k} ${v}`)
            .join(', ')}${b.redone?.length ? `; runs disturbed and run again: ${b.redone.length}` : ''}`,
      ),
      ...(most >= OTHER_LOAD_WARNING
        ? [`WARNING: other processes used up to ${fixed(most, 2)} cores during the batch-link runs`]
        : []),
    );
  }
  return out;
}

/** The list-query series: one row per query and size, with the index its plan used. */
function formatLists(lists: ListLatency[]): string[] {
  const target = (lists[0] ?? missing('lists[0]')).targetMs;
  const rows: string[][] = [];
  for (const series of lists) {
    for (const [i, q] of series.queries.entries()) {
      rows.push([
        i === 0 ? series.records.toLocaleString('en-US') : '',
        q.label,
        `${q.requests}${i === 0 && series.cutShort ? ' (budget hit)' : ''}`,
        fixed(q.p50),
        fixed(q.p95),
        fixed(q.max),
        q.total !== undefined
          ? `${q.rows} of ${q.total}`
          : q.totalEstimate !== undefined
            ? `${q.rows} of ~${q.totalEstimate}`
            : String(q.rows),
        q.plan ? q.plan.indexesUsed.join(', ') || 'none' : '',
        q.plan ? fixed(q.plan.executionMs, 2) : '',
        q.inTarget ? `< ${target} ${q.meetsTarget ? 'PASS' : 'FAIL'}` : '(not in target)',
      ]);
    }
  }
  return [
    `List queries through the service (sequential, pageSize=50, in turn), latency in ms; target p95 < ${target} ms for (a)-(d) at 1,000,000 records:`,
    table(
      [
        'Records',
        'Query',
        'Requests',
        'p50',
        'p95',
        'max',
        'rows',
        'index (EXPLAIN)',
        'plan ms',
        'p95 target',
      ],
      rows,
      2,
    ),
    'rows: median rows a page returned (with count=true, of the median meta.total; with count=estimate, of ~ the median meta.totalEstimate); index (EXPLAIN): the indexes of the plan of the statement the service sent for a sample request (full plans below).',
  ];
}

/** The batch-create scenario: records a second in batches beside one by one. */
function formatRecordPatch(r: RecordPatchResult): string[] {
  const m = r.service;
  return [
    'Updating records through the service, record.updated events included (2 runs):',
    table(
      ['Scenario', 'req/s', 'p50 ms', 'p99 ms', 'CPU µs/req', 'PG µs/req', 'stmt/req', 'non-2xx'],
      [
        [
          r.label,
          fixed(m.requestsPerSecond, 0),
          fixed(m.latencyP50, 1),
          fixed(m.latencyP99, 1),
          m.cpuPerRequestUs === undefined ? '-' : fixed(m.cpuPerRequestUs, 0),
          m.databaseCpuPerRequestUs === undefined ? '-' : fixed(m.databaseCpuPerRequestUs, 0),
          m.statementsPerRequest === undefined ? '-' : fixed(m.statementsPerRequest, 2),
          String(m.non2xx),
        ],
      ],
    ),
    `record-patch checks: answered2xx ${r.checks.answered2xx}, updatedEvents ${r.checks.updatedEvents}`,
    ...(r.historyStorage
      ? [
          `Field history: ${r.historyStorage.rows.toLocaleString('en-US')} entries, ${r.historyStorage.bytesPerRow} bytes each on disk (table, index and TOAST)`,
        ]
      : []),
  ];
}

function formatBatch(b: BatchCreateResult): string[] {
  const row = (kind: 'single' | 'batch', label: string, perRequest: number) => {
    const m = b[kind];
    return [
      `${label}${b.order[0] === kind ? ' (1st)' : ''}`,
      fixed(m.requestsPerSecond, 0),
      fixed(b.recordsPerSecond[kind], 0),
      fixed(m.latencyP50, 0),
      fixed(m.latencyP99, 0),
      m.cpuPerRequestUs === undefined ? '-' : fixed(m.cpuPerRequestUs / perRequest, 0),
      String(m.non2xx),
    ];
  };
  return [
    `Creating records through the service, record.created events included (A-B-B-A, ${b.batchSize} items a batch):`,
    table(
      ['Scenario', 'req/s', 'records/s', 'p50 ms', 'p99 ms', 'CPU µs/record', 'non-2xx'],
      [row('single', 'POST /records', 1), row('batch', b.label, b.batchSize)],
    ),
    `batch-create: ${fixed(b.speedup, 1)}x the records/s of single creates; target >= ${b.target} records/s ${
      b.meetsTarget ? 'PASS' : 'FAIL'
    }`,
    `batch-create checks: ${Object.entries(b.checks)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
    ...(b.redone?.length
      ? [`Runs disturbed and run again: ${b.redone.map((r) => r.target).join(', ')}`]
      : []),
  ];
}

const LINE_WIDTH = 110;

/**
 * JSON laid out as the repository's formatter (biome) writes it, so the results file passes
 * `pnpm lint`: objects one key per line, arrays of plain values on one line when they fit.
 */
export function toJson(value: unknown, indent = '', prefix = 0): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const inner = `${indent}  `;
    if (value.every((item) => item === null || typeof item !== 'object')) {
      const flat = `[${value.map((item) => JSON.stringify(item)).join(', ')}]`;
      if (indent.length + prefix + flat.length + 1 <= LINE_WIDTH) return flat;
    }
    return `[\n${value.map((item) => `${inner}${toJson(item, inner)}`).join(',\n')}\n${indent}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return '{}';
    const inner = `${indent}  `;
    const lines = entries.map(([key, v]) => {
      const name = `${JSON.stringify(key)}: `;
      return `${inner}${name}${toJson(v, inner, name.length)}`;
    });
    return `{\n${lines.join(',\n')}\n${indent}}`;
  }
  return JSON.stringify(value);
}

export async function writeResults(path: string, results: BenchResults): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${toJson(results)}\n`);
}

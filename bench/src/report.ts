import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { PlanSummary } from './explain.ts';
import type { Measurement, Scenario } from './scenarios.ts';
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
}

export interface SeedTiming {
  records: number;
  seconds: number;
}

export interface BenchResults {
  startedAt: string;
  finishedAt: string;
  seconds: number;
  machine: { cpus: number; node: string; platform: string };
  database: string;
  settings: { connections: number; duration: number; warmup: number; searchRequests: number };
  seeding: SeedTiming[];
  scenarios: ScenarioResult[];
  search: SearchLatency[];
  plans: PlanSummary[];
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '-');

export function formatResults(results: BenchResults): string {
  const out: string[] = [];
  const s = results.settings;
  out.push(
    `CRM bench: ${results.machine.cpus} CPUs, Node ${results.machine.node}, PostgreSQL ${results.database}; ` +
      `${s.connections} connections, ${s.duration} s measured per run, ` +
      `2 runs per server in A-B-B-A order (first warm-up ${s.warmup} s, second 1 s); figures are the means of the 2 runs`,
  );
  out.push(
    `Seeding: ${results.seeding.map((t) => `${t.records.toLocaleString('en-US')} records in ${fixed(t.seconds)} s`).join(', ')}`,
  );
  out.push('');
  const rows: string[][] = [];
  for (const r of results.scenarios) {
    for (const m of [r.service, r.bare]) {
      rows.push([
        m.target === 'service' ? r.label : '',
        `${m.target}${r.order[0] === m.target ? ' (1st)' : ''}`,
        fixed(m.requestsPerSecond, 0),
        fixed(m.latencyP50, 0),
        fixed(m.latencyP99, 0),
        String(m.non2xx),
        m.target === 'bare' ? `${fixed(r.ratio, 2)}x` : '',
        m.target === 'bare' ? `>= ${r.target}x ${r.meetsTarget ? 'PASS' : 'FAIL'}` : '',
      ]);
    }
  }
  out.push(table(['Scenario', 'Server', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'svc/bare', 'target'], rows));
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
  for (const plan of results.plans) {
    out.push('');
    out.push(
      `EXPLAIN (ANALYZE, BUFFERS) ${plan.statement} (${plan.kind}, ${plan.matchingRows} matching rows): ` +
        `${plan.topNode}, execution ${fixed(plan.executionMs, 2)} ms, planning ${fixed(plan.planningMs, 2)} ms, ` +
        `records_search_idx ${plan.usesSearchIndex ? 'USED' : 'NOT used'}` +
        `, indexes: ${plan.indexesUsed.join(', ') || 'none'}`,
    );
    for (const line of plan.outline) out.push(`    ${line}`);
  }
  return out.join('\n');
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

import { missing } from '@crm/domain';
import { getJson } from '../http-client.ts';
import { percentile, round } from '../time.ts';
import type { ShapeWorkspace } from './seed.ts';

/**
 * The searches of the search benchmark, by shape of data (README, "Search shapes"). A case
 * is one list request; with `pages`, its next pages are read by `meta.nextCursor` too, each
 * timed on its own. Every shape's target: p95 < 50 ms for first pages and for later pages.
 */
export interface SearchCase {
  shape: string;
  workspace: ShapeWorkspace;
  /** Query parameters of the first page. */
  params: Record<string, string>;
  /** Pages to read, the first included. */
  pages: number;
}

export const TARGET_P95_MS = 50;

const COMMON = ['son', 'mar', 'gmail', 'john'];
const MEDIUM = ['garcia', 'nguyen', 'northwind', 'outlook.com'];
const RARE = ['przybylski', 'xanthous', 'thorvaldsen'];
const NONE = ['zqxjv', 'jonhsno'];
const SHORT = ['a', 'jo', 'Zh'];
const ALL_KINDS = [...COMMON, ...MEDIUM, ...RARE, ...NONE];

const DAY = 86_400_000;

function of(workspaces: ShapeWorkspace[], key: string): ShapeWorkspace {
  return workspaces.find((w) => w.key === key) ?? missing(`workspace ${key}`);
}

function folderOf(workspace: ShapeWorkspace, name: string): string {
  return (workspace.folders.find((f) => f.name === name) ?? missing(`folder ${name}`)).id;
}

export function searchCases(workspaces: ShapeWorkspace[]): SearchCase[] {
  const big = of(workspaces, 'big');
  const api = of(workspaces, 'api');
  const mid = of(workspaces, 'mid');
  const small = workspaces.filter((w) => w.key.startsWith('small-'));
  const cases: SearchCase[] = [];
  const add = (shape: string, workspace: ShapeWorkspace, params: Record<string, string>, pages = 1) =>
    cases.push({ shape, workspace, params, pages });

  for (const w of small)
    for (const q of ['gmail', 'garcia', 'przybylski', 'zqxjv', 'son']) add('small workspaces', w, { q });
  for (const q of [...ALL_KINDS, ...SHORT]) add('workspace of 30 %', big, { q }, 5);
  for (const q of ALL_KINDS) add('workspace of 15 %', mid, { q }, 3);
  for (const sort of [undefined, 'title', 'createdAt']) {
    for (const q of ['gmail', 'yahoo', 'son', 'garcia', 'przybylski', 'zqxjv']) {
      add('filled through the API', api, { q, ...(sort ? { sort } : {}) }, 5);
    }
  }
  for (const sort of ['-createdAt', '-updatedAt']) {
    for (const q of ['gmail', 'yahoo', 'hotmail', 'outlook.com']) {
      add('absent from the newest month', big, { q, sort, folderId: folderOf(big, 'People') }, 5);
    }
  }
  for (const folder of ['Companies', 'Leads']) {
    for (const q of ['gmail', 'garcia', 'john', 'son', 'yahoo']) {
      add('term of another folder', big, { q, folderId: folderOf(big, folder) }, 3);
    }
  }
  const people = folderOf(big, 'People');
  const since = new Date(Date.now() - 400 * DAY).toISOString().slice(0, 10);
  const filters: Record<string, string>[] = [
    { 'filter[data.lifecycle]': 'Churned', 'filter[data.vip]': 'true' },
    { 'filter[data.score][gte]': '95' },
    { 'filter[data.since][gte]': since },
  ];
  const sorts = [
    '-createdAt',
    'createdAt',
    '-updatedAt',
    'updatedAt',
    'title',
    '-title',
    'data.score',
    '-data.score',
    'data.company',
    '-data.since',
  ];
  for (const sort of sorts) {
    for (const [i, filter] of filters.entries()) {
      const q = ['son', 'garcia', 'gmail'][(sorts.indexOf(sort) + i) % 3] ?? missing('a term');
      add('filter and sort', big, { q, sort, folderId: people, ...filter }, 5);
      // The same list without `q`: what the search adds to it.
      add('filter and sort, no q', big, { sort, folderId: people, ...filter }, 5);
    }
    add('sort alone', big, { q: 'garcia', sort, folderId: people }, 5);
  }
  for (const q of ['renewal', 'lisbon', 'questionnaire', 'invoice 44', 'single sign-on', 'wire']) {
    add('long texts', big, { q }, 3);
    add('long texts', api, { q, sort: '-updatedAt' }, 3);
  }
  const dayAgo = new Date(Date.now() - DAY).toISOString();
  for (const w of [big, api]) {
    for (const q of ['son', 'garcia', 'gmail', 'renamed']) {
      add('changed since created', w, { q, sort: '-updatedAt' }, 3);
      add('changed since created', w, { q, sort: 'updatedAt', updatedSince: dayAgo }, 3);
    }
  }
  return cases;
}

export interface Sample {
  shape: string;
  label: string;
  page: number;
  ms: number;
  rows: number;
}

function pathOf(params: Record<string, string>, cursor?: string): string {
  const query = new URLSearchParams({ ...params, pageSize: '50', ...(cursor ? { cursor } : {}) });
  return `/api/v1/records?${query.toString()}`;
}

/** Reads every case's pages once, in order, timing each page; `measured: false` for the warm pass. */
export async function runCases(url: string, cases: SearchCase[]): Promise<Sample[]> {
  const samples: Sample[] = [];
  for (const c of cases) {
    let cursor: string | undefined;
    const label = `${c.workspace.key} ${new URLSearchParams(c.params).toString()}`;
    for (let page = 1; page <= c.pages; page++) {
      const started = performance.now();
      const { status, body } = await getJson<{ data?: unknown[]; meta?: { nextCursor: string | null } }>(
        url,
        pathOf(c.params, cursor),
        c.workspace.apiKey,
      );
      const ms = performance.now() - started;
      if (status !== 200 || !Array.isArray(body.data)) {
        throw new Error(`${label} page ${page} answered ${status}: ${JSON.stringify(body).slice(0, 500)}`);
      }
      samples.push({ shape: c.shape, label, page, ms, rows: body.data.length });
      cursor = body.meta?.nextCursor ?? undefined;
      if (!cursor) break;
    }
  }
  return samples;
}

export interface ShapeSummary {
  shape: string;
  first: { requests: number; p50: number; p95: number; max: number };
  later: { requests: number; p50: number; p95: number; max: number };
  met: boolean;
  /** The slowest requests, for a look at their plans. */
  slowest: { label: string; page: number; ms: number; rows: number }[];
}

function stats(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    requests: sorted.length,
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    max: round(sorted.at(-1) ?? Number.NaN),
  };
}

/** p50, p95 and max of first and later pages by shape; `met` when both p95 are under the target. */
export function summarize(samples: Sample[]): ShapeSummary[] {
  const shapes = [...new Set(samples.map((s) => s.shape))];
  return shapes.map((shape) => {
    const of = samples.filter((s) => s.shape === shape);
    const first = stats(of.filter((s) => s.page === 1).map((s) => s.ms));
    const later = stats(of.filter((s) => s.page > 1).map((s) => s.ms));
    const met = first.p95 < TARGET_P95_MS && (later.requests === 0 || later.p95 < TARGET_P95_MS);
    const slowest = [...of]
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 5)
      .map((s) => ({ label: s.label, page: s.page, ms: round(s.ms), rows: s.rows }));
    return { shape, first, later, met, slowest };
  });
}

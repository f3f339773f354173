import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { missing } from '@crm/domain';
import { round } from '../time.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

interface SelfTime {
  name: string;
  ms: number;
  /** Share of the non-idle time. */
  percent: number;
}

export interface ProfileSummary {
  file: string;
  /** Sampled time inside the window, and the part of it that was not idle. */
  totalMs: number;
  busyMs: number;
  byPackage: SelfTime[];
  byFunction: SelfTime[];
}

const SPECIAL = new Set(['(idle)', '(program)', '(garbage collector)', '(root)']);

/** Where a script lives: an npm package, a workspace package, node's internals. */
function packageOf(url: string, functionName: string): string {
  if (url === '') return SPECIAL.has(functionName) ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node (internals)';
  const pnpm = url.match(/node_modules\/\.pnpm\/[^/]+\/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (pnpm) return pnpm[1] ?? missing('pnpm[1]');
  const plain = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (plain) return plain[1] ?? missing('plain[1]');
  const workspace = url.match(/\/(packages|apps)\/([^/]+)\//);
  if (workspace) return `@crm/${workspace[2]} (${workspace[1]})`;
  return url;
}

function shortUrl(url: string): string {
  const i = url.lastIndexOf('node_modules/');
  if (i >= 0) return url.slice(i + 'node_modules/'.length).replace(/^\.pnpm\/[^/]+\/node_modules\//, '');
  const w = url.search(/\/(packages|apps)\//);
  if (w >= 0) return url.slice(w + 1);
  return url.replace(/^file:\/\//, '');
}

/**
 * Self time per package and per function of the service's main thread (node writes one
 * .cpuprofile per thread, tsx's loader thread included: the busiest one is taken), counting
 * only the samples taken within `window` (µs of CLOCK_MONOTONIC, the clock of both V8's
 * profile timestamps and `process.hrtime`), so start-up and shutdown are left out.
 */
export async function summarizeProfile(
  dir: string,
  window: { fromUs: number; toUs: number },
  top = 15,
): Promise<ProfileSummary> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.cpuprofile'));
  if (files.length === 0) throw new Error(`no .cpuprofile in ${dir}`);
  const summaries = await Promise.all(files.map((f) => summarizeFile(dir, f, window, top)));
  return (
    summaries.sort((a, b) => b.busyMs - a.busyMs)[0] ??
    missing('summaries.sort((a, b) => b.busyMs - a.busyMs)[0]')
  );
}

async function summarizeFile(
  dir: string,
  file: string,
  window: { fromUs: number; toUs: number },
  top: number,
): Promise<ProfileSummary> {
  const profile = JSON.parse(await readFile(join(dir, file), 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (at < window.fromUs || at > window.toUs) continue;
    const id = profile.samples[i] ?? missing('profile.samples[i]');
    selfUs.set(id, (selfUs.get(id) ?? 0) + delta);
  }
  const packages = new Map<string, number>();
  const functions = new Map<string, number>();
  let idleUs = 0;
  let totalUs = 0;
  for (const [id, us] of selfUs) {
    const node = byId.get(id) ?? missing('byId.get(id)');
    const { functionName, url, lineNumber } = node.callFrame;
    totalUs += us;
    if (functionName === '(idle)') {
      idleUs += us;
      continue;
    }
    const pkg = packageOf(url, functionName);
    packages.set(pkg, (packages.get(pkg) ?? 0) + us);
    const name = url
      ? `${functionName || '(anonymous)'} ${shortUrl(url)}:${lineNumber + 1}`
      : functionName || '(anonymous)';
    functions.set(name, (functions.get(name) ?? 0) + us);
  }
  const busyUs = totalUs - idleUs;
  const list = (map: Map<string, number>): SelfTime[] =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({ name, ms: round(us / 1000), percent: round((100 * us) / busyUs) }));
  return {
    file,
    totalMs: round(totalUs / 1000),
    busyMs: round(busyUs / 1000),
    byPackage: list(packages),
    byFunction: list(functions),
  };
}

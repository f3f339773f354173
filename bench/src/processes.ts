import { type ChildProcess, spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { sleep, withTimeout } from './time.ts';

export interface Child {
  name: string;
  url: string;
  process: ChildProcess;
  /** The last lines the process wrote, for error messages. */
  output(): string;
  /** SIGTERM, SIGKILL to its process group after `graceMs`; resolves once it has exited. */
  stop(graceMs?: number): Promise<void>;
}

const KEEP_LINES = 40;

/**
 * Starts `node --import tsx <script>` in a process group of its own: one process, so its CPU
 * and resident memory are the script's own (tsx's CLI would add a wrapper process of about
 * 55 MiB), and stopping the group reaches everything it started and nothing else. With
 * `loader: 'script'` the script registers its own loader, as `npm start`'s
 * apps/server/scripts/start.mjs does, and `--import tsx` is left out: that flag would also
 * hook `require` on the main thread and keep a second transpiler process alive, about 64 MiB
 * of resident memory the service run by `npm start` does not have.
 */
export function startTsxChild(options: {
  name: string;
  script: string;
  cwd: string;
  env: Record<string, string>;
  url: string;
  /** A module the process loads first (`--import`). */
  preload?: string;
  loader?: 'tsx' | 'script';
}): Child {
  const args = options.loader === 'script' ? [options.script] : ['--import', 'tsx', options.script];
  if (options.preload) args.unshift('--import', pathToFileURL(options.preload).href);
  // BENCH_CPU_PROF_DIR: each process writes a V8 CPU profile of its life there when it stops (README).
  if (process.env.BENCH_CPU_PROF_DIR)
    args.unshift('--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF_DIR}`);
  const child = spawn(process.execPath, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  return supervise(child, options.name, options.url, 10_000);
}

/**
 * `node --import tsx apps/server/src/main.ts` (the server's own start command) in a process
 * group of its own, so the script runs in this very process: `--cpu-prof` then profiles the
 * service itself, and the profile is written when SIGTERM's clean shutdown exits.
 */
export function startServiceProcess(options: {
  repoRoot: string;
  env: Record<string, string>;
  url: string;
  /** Folder for a V8 CPU profile of the whole life of the process. */
  cpuProfileDir?: string;
  /** Preloads trace-sql.mjs, which logs every statement to this file until it is deleted. */
  sqlTrace?: { tracer: string; file: string };
}): Child {
  const args = ['--import', 'tsx'];
  if (options.sqlTrace) args.unshift('--import', pathToFileURL(options.sqlTrace.tracer).href);
  if (options.cpuProfileDir) args.push('--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`);
  args.push('apps/server/src/main.ts');
  const env = { ...process.env, ...options.env };
  delete env.NODE_OPTIONS;
  if (options.sqlTrace) env.BENCH_TRACE_SQL = options.sqlTrace.file;
  const child = spawn(process.execPath, args, {
    cwd: options.repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  return supervise(child, 'service', options.url, 15_000);
}

/** Keeps the last lines a child wrote; `stop` sends SIGTERM, then SIGKILL to its group after the grace. */
function supervise(child: ChildProcess, name: string, url: string, defaultGraceMs: number): Child {
  const lines: string[] = [];
  const collect = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (line.trim() === '') continue;
      lines.push(line);
      if (lines.length > KEEP_LINES) lines.shift();
    }
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  /** To the direct child only, or to the whole group. */
  const signal = (signalName: NodeJS.Signals, group: boolean) => {
    if (child.pid === undefined) return;
    try {
      process.kill(group ? -child.pid : child.pid, signalName);
    } catch {
      // already gone
    }
  };
  let stopping: Promise<void> | undefined;
  return {
    name,
    url,
    process: child,
    output: () => lines.join('\n'),
    stop(graceMs = defaultGraceMs) {
      stopping ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) signal('SIGTERM', false);
        try {
          await withTimeout(exited, graceMs, `${name} exit`);
        } catch {
          signal('SIGKILL', true);
          await withTimeout(exited, 5_000, `${name} exit after SIGKILL`).catch(() => {});
        }
        // A grandchild may outlive its parent for a moment: make sure the group is gone.
        signal('SIGKILL', true);
      })();
      return stopping;
    },
  };
}

/** Polls GET /readyz until it answers 200, the process dies, or `timeoutMs` passes. */
export async function waitUntilReady(child: Child, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    if (child.process.exitCode !== null || child.process.signalCode !== null) {
      throw new Error(
        `${child.name} exited (${child.process.exitCode ?? child.process.signalCode}):\n${child.output()}`,
      );
    }
    try {
      const response = await fetch(`${child.url}/readyz`, { signal: AbortSignal.timeout(2_000) });
      if (response.status === 200) return;
      last = `status ${response.status}`;
    } catch (error) {
      last = String(error);
    }
    await sleep(200);
  }
  throw new Error(`${child.name} not ready after ${timeoutMs} ms (${last}):\n${child.output()}`);
}

import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import type { Child } from '../processes.ts';
import { withTimeout } from '../time.ts';

const KEEP_LINES = 40;

/**
 * `node --import tsx apps/server/src/main.ts` (the server's own start command) in a process
 * group of its own, so the script runs in this very process: `--cpu-prof` then profiles the
 * service itself, and the profile is written when SIGTERM's clean shutdown exits.
 */
export function startService(options: {
  repoRoot: string;
  env: Record<string, string>;
  url: string;
  /** Folder for a V8 CPU profile of the whole life of the process. */
  cpuProfileDir?: string;
  /** Preloads ../trace-sql.mjs, which logs every statement to this file until it is deleted. */
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
  const signal = (name: NodeJS.Signals, group: boolean) => {
    if (child.pid === undefined) return;
    try {
      process.kill(group ? -child.pid : child.pid, name);
    } catch {
      // already gone
    }
  };
  let stopping: Promise<void> | undefined;
  return {
    name: 'service',
    url: options.url,
    process: child,
    output: () => lines.join('\n'),
    stop(graceMs = 15_000) {
      stopping ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) signal('SIGTERM', false);
        try {
          await withTimeout(exited, graceMs, 'service exit');
        } catch {
          signal('SIGKILL', true);
          await withTimeout(exited, 5_000, 'service exit after SIGKILL').catch(() => {});
        }
        signal('SIGKILL', true);
      })();
      return stopping;
    },
  };
}

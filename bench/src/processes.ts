import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sleep, withTimeout } from './time.ts';

const require = createRequire(import.meta.url);
/** tsx's CLI, resolved like packages/cli/bin/crm.mjs does. */
export const TSX_CLI = join(dirname(require.resolve('tsx/package.json')), 'dist', 'cli.mjs');

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
 * Starts `node <tsx cli> <script>` in a process group of its own (tsx runs the script in a
 * grandchild), so stopping it reaches every process it started and nothing else.
 */
export function startTsxChild(options: {
  name: string;
  script: string;
  cwd: string;
  env: Record<string, string>;
  url: string;
  /** A module every node process of the child loads first (`--import`, through NODE_OPTIONS). */
  preload?: string;
}): Child {
  const env = { ...process.env, ...options.env };
  if (options.preload) {
    env.NODE_OPTIONS = `${env.NODE_OPTIONS ?? ''} --import ${pathToFileURL(options.preload).href}`.trim();
  }
  const child = spawn(process.execPath, [TSX_CLI, options.script], {
    cwd: options.cwd,
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
  /** To the tsx process only (it relays to the script once), or to the whole group. */
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
    name: options.name,
    url: options.url,
    process: child,
    output: () => lines.join('\n'),
    stop(graceMs = 10_000) {
      stopping ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) signal('SIGTERM', false);
        try {
          await withTimeout(exited, graceMs, `${options.name} exit`);
        } catch {
          signal('SIGKILL', true);
          await withTimeout(exited, 5_000, `${options.name} exit after SIGKILL`).catch(() => {});
        }
        // tsx's grandchild may outlive its parent for a moment: make sure the group is gone.
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

import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Processes a test starts, each in a process group of its own, so that everything it starts in
 * turn (npm's children, an embedded PostgreSQL) goes with it. None outlives its test file:
 *
 * - a process started during a test that fails or times out is killed when that test ends
 *   (`killStartedBy`, from tooling/vitest/setup-processes.ts);
 * - every process still running when the file's tests are done is killed (`killAll`, same setup);
 * - when the test process itself ends (Vitest stops it with SIGTERM once its file is done,
 *   which skips `exit` handlers unless one listens), every group is killed on the way out;
 * - a Node process started with PARENT_GUARD ends itself when the test process is gone,
 *   for when that was killed outright (SIGKILL) and could do none of the above;
 * - and the run's last global teardown (tooling/vitest/global-children.ts) looks for any
 *   process of the run still alive, kills it and fails the run.
 */

interface Started {
  /**
   * What to signal: `-pid`, its process group, for a process spawned here (detached, it leads
   * a group of its own); `pid` for one started otherwise (trackProcess).
   */
  target: number;
  what: string;
  /** The test running when it was started, or null (beforeAll, module scope). */
  test: string | null;
}

const started = new Set<Started>();
let currentTest: string | null = null;

/** `--import` this, after tsx, into a Node process a test starts: it ends when its parent is gone. */
export const PARENT_GUARD = fileURLToPath(new URL('./parent-guard.ts', import.meta.url));

/**
 * `spawn`, detached into a process group of its own and tracked as above. `what` names it in
 * reports. The caller still waits for, signals and reads the process as usual.
 */
export function spawnTracked(
  command: string,
  args: readonly string[],
  options: SpawnOptions = {},
  what = [command, ...args].join(' '),
): ChildProcess {
  listenForEnd();
  const proc = spawn(command, args, { ...options, detached: true });
  if (proc.pid === undefined) return proc; // 'error' follows: nothing was started.
  const entry: Started = { target: -proc.pid, what, test: currentTest };
  started.add(entry);
  proc.once('exit', () => {
    // Its group may outlive it (a child it did not stop): then it stays tracked.
    if (!alive(entry.target)) started.delete(entry);
  });
  return proc;
}

/**
 * Tracks a process started by other means (the postmaster of an embedded PostgreSQL, started
 * by its library as a child of this process), to be killed as a spawnTracked one would be.
 * Call the returned function once it has been stopped, before its pid can go to another process.
 */
export function trackProcess(pid: number, what: string): () => void {
  listenForEnd();
  const entry: Started = { target: pid, what, test: currentTest };
  started.add(entry);
  return () => {
    started.delete(entry);
  };
}

/** Called as each test starts (tooling/vitest/setup-processes.ts). */
export function testStarting(name: string): void {
  currentTest = name;
}

/** Kills the groups started during test `name`; returns what they were. */
export function killStartedBy(name: string): string[] {
  return killWhere((entry) => entry.test === name);
}

/** Kills every group still tracked; returns what they were. */
export function killAll(): string[] {
  currentTest = null;
  return killWhere(() => true);
}

function killWhere(match: (entry: Started) => boolean): string[] {
  const killed: string[] = [];
  for (const entry of [...started]) {
    if (!match(entry)) continue;
    started.delete(entry);
    if (!alive(entry.target)) continue;
    try {
      process.kill(entry.target, 'SIGKILL');
      killed.push(`${Math.abs(entry.target)} ${entry.what}`);
    } catch {
      // Gone meanwhile.
    }
  }
  return killed;
}

function alive(target: number): boolean {
  try {
    process.kill(target, 0);
    return true;
  } catch {
    return false;
  }
}

let listening = false;
/** Kills every group when this process ends, by exit or by the signals that end it. */
function listenForEnd(): void {
  if (listening) return;
  listening = true;
  process.once('exit', () => {
    killAll();
  });
  for (const [signal, number] of [
    ['SIGTERM', 15],
    ['SIGINT', 2],
    ['SIGHUP', 1],
  ] as const) {
    process.once(signal, () => {
      killAll();
      // What the signal would have done: end this process.
      process.exit(128 + number);
    });
  }
}

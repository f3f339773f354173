import { readdirSync, readFileSync } from 'node:fs';
import type { TestProject } from 'vitest/node';

/**
 * The last check of a run: no process a test started may outlive it. Every process a test
 * starts inherits CRM_TEST_RUN, set to this run's id by tooling/vitest/setup-env.ts; when the
 * last project's teardown runs, all test files are done, so any process still carrying it
 * was left behind. Those are killed, named, and the run fails. Needs /proc (Linux, where CI
 * runs); elsewhere the check is skipped. tooling/vitest/child-processes.ts is what
 * normally stops them before this.
 */
const SHARED = Symbol.for('crm.testing.children');
interface Shared {
  users: number;
}

export default function setup(project: TestProject) {
  const scope = globalThis as { [SHARED]?: Shared };
  scope[SHARED] ??= { users: 0 };
  const shared = scope[SHARED];
  shared.users++;
  const run = String(process.pid);
  project.provide('crmTestRun', run);
  return () => {
    if (--shared.users > 0) return;
    delete scope[SHARED];
    const left = processesOfRun(run);
    if (left.length === 0) return;
    for (const { pid } of left) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone meanwhile.
      }
    }
    const list = left.map(({ pid, command }) => `  ${pid} ${command}`).join('\n');
    process.exitCode = 1;
    throw new Error(
      `${left.length} process(es) started by tests were still running after every test file had ended; ` +
        `they are killed now. A test that starts a process must stop it, or start it through ` +
        `tooling/vitest/child-processes.ts:\n${list}`,
    );
  };
}

/** Processes whose environment carries CRM_TEST_RUN=run, but this one. */
export function processesOfRun(run: string): { pid: number; command: string }[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const marker = `\0CRM_TEST_RUN=${run}\0`;
  const found: { pid: number; command: string }[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const environ = `\0${readFileSync(`/proc/${entry}/environ`, 'latin1')}`;
      if (!environ.includes(marker)) continue;
      const command = readFileSync(`/proc/${entry}/cmdline`, 'latin1').split('\0').join(' ').trim();
      found.push({ pid: Number(entry), command: command.slice(0, 200) });
    } catch {
      // Exited meanwhile, or not ours to read.
    }
  }
  return found;
}

declare module 'vitest' {
  export interface ProvidedContext {
    crmTestRun: string;
  }
}

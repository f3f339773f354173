import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { missing } from '@crm/domain';

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
export const HZ = 100;

/** Busy CPU ticks of the whole machine (all CPUs, idle and iowait excluded), from /proc/stat. */
function machineBusy(): number {
  const line =
    readFileSync('/proc/stat', 'utf8').split('\n')[0] ??
    missing("readFileSync('/proc/stat', 'utf8').split('\n')[0]");
  const [, user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).map(Number);
  return (
    (user ?? missing('user')) +
    (nice ?? missing('nice')) +
    (system ?? missing('system')) +
    (irq ?? missing('irq')) +
    (softirq ?? missing('softirq')) +
    (steal ?? missing('steal'))
  );
}

/** `root` and every process descended from it that is alive now, from /proc. */
function processTree(root: number): number[] {
  const parent = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parent.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  return [...parent.keys()].filter((pid) => {
    for (let at: number | undefined = pid; at !== undefined && at > 0; at = parent.get(at)) {
      if (at === root) return true;
    }
    return false;
  });
}

/** Sums `read(pid)` over a process tree, skipping processes that exit meanwhile. */
function sumOverTree(root: number, read: (pid: number) => number): number {
  let total = 0;
  for (const pid of processTree(root)) {
    try {
      total += read(pid);
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

/**
 * CPU ticks used so far by `root` and every process descended from it (the bench and its
 * children), those that already exited included: each process's own time (utime, stime) plus
 * that of its children it has reaped (cutime, cstime). Without the latter, a process that
 * exits during a run (a PostgreSQL backend or autovacuum worker) takes its time out of the
 * sum, which then reads as load from outside, or as negative CPU.
 */
export function treeBusy(root: number): number {
  return sumOverTree(root, (pid) => {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  });
}

/** Bytes per memory page (4 KiB on the x86-64 and arm64 Linux machines this runs on). */
const PAGE = 4096;

/** Resident memory of `root` and every process descended from it, in bytes (statm's resident pages). */
export function treeRss(root: number): number {
  return sumOverTree(root, (pid) => Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * PAGE);
}

/**
 * Measures how much CPU processes outside the benchmark used while `work` ran, in cores
 * (e.g. 0.5 = half a core on average), so a run disturbed by other work on the machine
 * shows (processes of the benchmark's tree that exit meanwhile stay inside: see treeBusy).
 * Undefined where /proc is not available.
 */
export async function withOtherLoad<T>(work: () => Promise<T>): Promise<{ result: T; otherCores?: number }> {
  let before: { machine: number; tree: number; at: number } | undefined;
  try {
    before = { machine: machineBusy(), tree: treeBusy(process.pid), at: performance.now() };
  } catch {
    before = undefined;
  }
  const result = await work();
  if (!before) return { result };
  const seconds = (performance.now() - before.at) / 1000;
  const other = machineBusy() - before.machine - (treeBusy(process.pid) - before.tree);
  const cores = Math.min(availableParallelism(), Math.max(0, other / HZ / seconds));
  return { result, otherCores: Math.round(cores * 100) / 100 };
}

import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
export const HZ = 100;

/** Busy CPU ticks of the whole machine (all CPUs, idle and iowait excluded), from /proc/stat. */
function machineBusy(): number {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  const [, user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).map(Number);
  return user! + nice! + system! + irq! + softirq! + steal!;
}

/** CPU ticks used so far by `root` and every process descended from it (the bench and its children). */
export function treeBusy(root: number): number {
  const parent = new Map<number, number>();
  const busy = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(entry), Number(fields[1]));
      busy.set(Number(entry), Number(fields[11]) + Number(fields[12]));
    } catch {
      // gone meanwhile
    }
  }
  let total = 0;
  for (const [pid, ticks] of busy) {
    for (let at: number | undefined = pid; at !== undefined && at > 0; at = parent.get(at)) {
      if (at === root) {
        total += ticks;
        break;
      }
    }
  }
  return total;
}

/**
 * Measures how much CPU processes outside the benchmark used while `work` ran, in cores
 * (e.g. 0.5 = half a core on average), so a run disturbed by other work on the machine
 * shows. Processes of the benchmark's tree that exit meanwhile would count as outside; none
 * do during a run. Undefined where /proc is not available.
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

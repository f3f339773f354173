import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const HZ = 100;

interface ProcStat {
  pid: number;
  comm: string;
  ppid: number;
  pgrp: number;
  ticks: number;
}

function readProcs(): ProcStat[] {
  const out: ProcStat[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.push({
        pid: Number(entry),
        comm,
        ppid: Number(fields[1]),
        pgrp: Number(fields[2]),
        ticks: Number(fields[11]) + Number(fields[12]),
      });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

export interface CpuSplit {
  /** CPU seconds used by the service's process group. */
  service: number;
  /**
   * CPU seconds used by PostgreSQL: the embedded server this benchmark started (its processes
   * descend from this one), or, with DATABASE_URL, every postgres process on the machine.
   */
  postgres: number;
}

function sample(serviceGroup: number): CpuSplit {
  const procs = readProcs();
  const parent = new Map(procs.map((p) => [p.pid, p.ppid]));
  const ours = (pid: number) => {
    for (let at: number | undefined = pid; at !== undefined && at > 1; at = parent.get(at)) {
      if (at === process.pid) return true;
    }
    return false;
  };
  const embedded = !process.env.DATABASE_URL;
  let service = 0;
  let postgres = 0;
  for (const proc of procs) {
    if (proc.pgrp === serviceGroup) service += proc.ticks;
    else if (proc.comm === 'postgres' && (!embedded || ours(proc.pid))) postgres += proc.ticks;
  }
  return { service, postgres };
}

/**
 * CPU seconds the service and PostgreSQL spend while `work` runs, from /proc (undefined
 * where it is missing). Per accepted call these figures hardly depend on what else the
 * machine is doing, unlike calls per second.
 */
export async function measureCpu<T>(
  serviceGroup: number | undefined,
  work: () => Promise<T>,
): Promise<{ result: T; cpu?: CpuSplit }> {
  let before: CpuSplit | undefined;
  try {
    if (serviceGroup !== undefined) before = sample(serviceGroup);
  } catch {
    before = undefined;
  }
  const result = await work();
  if (!before || serviceGroup === undefined) return { result };
  const after = sample(serviceGroup);
  return {
    result,
    cpu: {
      service: (after.service - before.service) / HZ,
      postgres: (after.postgres - before.postgres) / HZ,
    },
  };
}

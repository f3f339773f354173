import { readFile } from 'node:fs/promises';
import type pg from 'pg';
import { round, sleep } from '../time.ts';

export interface ActivityShare {
  what: string;
  /** Share of samples in which a session was doing this, as % of all busy-session sightings. */
  percent: number;
  /** Sessions doing it on average (busy sessions per sample). */
  meanSessions: number;
}

export interface ActivitySummary {
  samples: number;
  intervalMs: number;
  /** Busy (non-idle) sessions of the benchmark's database per sample, on average. */
  meanBusySessions: number;
  byQuery: ActivityShare[];
  byWait: ActivityShare[];
  byState: ActivityShare[];
  /** Lock and LWLock waits with the statement that waited. */
  waitsByQuery: ActivityShare[];
}

const normalize = (query: string) =>
  query
    .replace(/\s+/g, ' ')
    .replace(/\$\d+/g, '$n')
    .replace(/'[^']*'/g, "'…'")
    .trim()
    .slice(0, 140);

/**
 * Samples pg_stat_activity (pg_stat_statements is not installed) every `intervalMs` on one
 * connection of its own: which statements the busy sessions run and what they wait on.
 */
export function sampleActivity(pool: pg.Pool, intervalMs = 50) {
  const byQuery = new Map<string, number>();
  const byWait = new Map<string, number>();
  const byState = new Map<string, number>();
  const waitsByQuery = new Map<string, number>();
  let samples = 0;
  let sightings = 0;
  let running = true;
  const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
  const loop = (async () => {
    const client = await pool.connect();
    try {
      while (running) {
        const { rows } = await client.query<{
          state: string | null;
          wait: string | null;
          query: string | null;
        }>(
          `select state, wait_event_type || ':' || wait_event as wait, query from pg_stat_activity
            where datname = current_database() and pid <> pg_backend_pid()
              and backend_type = 'client backend' and state is not null and state <> 'idle'`,
        );
        samples++;
        for (const row of rows) {
          sightings++;
          bump(byState, row.state ?? '?');
          bump(byWait, row.state === 'active' ? (row.wait ?? 'CPU (no wait event)') : `(${row.state})`);
          bump(byQuery, normalize(row.query ?? ''));
          if (row.state === 'active' && row.wait && /^(Lock|LWLock):/.test(row.wait))
            bump(waitsByQuery, `${row.wait} ${normalize(row.query ?? '').slice(0, 100)}`);
        }
        await sleep(intervalMs);
      }
    } finally {
      client.release();
    }
  })();
  const top = (map: Map<string, number>, n: number): ActivityShare[] =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([what, count]) => ({
        what,
        percent: round((100 * count) / Math.max(1, sightings)),
        meanSessions: round(count / Math.max(1, samples), 2),
      }));
  return {
    async stop(): Promise<ActivitySummary> {
      running = false;
      await loop;
      return {
        samples,
        intervalMs,
        meanBusySessions: round(sightings / Math.max(1, samples), 2),
        byQuery: top(byQuery, 12),
        byWait: top(byWait, 10),
        byState: top(byState, 5),
        waitsByQuery: top(waitsByQuery, 8),
      };
    },
  };
}

/** User + system CPU seconds a process has used, from /proc (Linux); null when unreadable. */
async function cpuSeconds(pid: number): Promise<number | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of the whole line, in clock ticks (100 a second).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

export interface CpuShare {
  /** CPU seconds used during the phase. */
  service: number | null;
  postgres: number | null;
  bench: number;
  wallSeconds: number;
}

/**
 * CPU used during a phase by the service process, the PostgreSQL server's processes (those
 * pg_stat_activity lists, when the server runs on this machine) and the bench process.
 */
export async function cpuMeter(pool: pg.Pool, servicePid: number | undefined) {
  const postgresPids = async () =>
    (await pool.query<{ pid: number }>('select pid from pg_stat_activity')).rows.map((r) => r.pid);
  const readAll = async (pids: number[]) => {
    const out = new Map<number, number>();
    for (const pid of pids) {
      const s = await cpuSeconds(pid);
      if (s !== null) out.set(pid, s);
    }
    return out;
  };
  const startPids = await postgresPids();
  const pgBefore = await readAll(startPids);
  const serviceBefore = servicePid === undefined ? null : await cpuSeconds(servicePid);
  const benchBefore = process.cpuUsage();
  const wallBefore = performance.now();
  return async (): Promise<CpuShare> => {
    const bench = process.cpuUsage(benchBefore);
    const wallSeconds = (performance.now() - wallBefore) / 1000;
    const serviceAfter = servicePid === undefined ? null : await cpuSeconds(servicePid);
    const pids = [...new Set([...startPids, ...(await postgresPids())])];
    const pgAfter = await readAll(pids);
    let postgres: number | null = pgAfter.size === 0 ? null : 0;
    for (const [pid, after] of pgAfter) postgres = (postgres ?? 0) + after - (pgBefore.get(pid) ?? 0);
    return {
      service:
        serviceAfter === null || serviceBefore === null ? null : round(serviceAfter - serviceBefore, 2),
      postgres: postgres === null ? null : round(postgres, 2),
      bench: round((bench.user + bench.system) / 1e6, 2),
      wallSeconds: round(wallSeconds, 2),
    };
  };
}

export interface QueuePoint {
  /** Seconds since the sampler started. */
  t: number;
  /** Jobs in the queue per task (locked or not), and the pending deliveries (the delivery queue). */
  jobs: Record<string, number>;
}

/** The graphile-worker queue per task and the pending deliveries, sampled every `intervalMs`. */
export function sampleQueue(pool: pg.Pool, intervalMs = 1_000) {
  const points: QueuePoint[] = [];
  let running = true;
  const started = performance.now();
  const loop = (async () => {
    while (running) {
      const { rows } = await pool.query<{ task: string; n: string }>(
        `select task_identifier as task, count(*) as n from graphile_worker.jobs group by 1
         union all
         select 'pending deliveries', count(*) from deliveries where status = 'PENDING' having count(*) > 0`,
      );
      points.push({
        t: round((performance.now() - started) / 1000, 1),
        jobs: Object.fromEntries(rows.map((r) => [r.task, Number(r.n)])),
      });
      await sleep(intervalMs);
    }
  })();
  return {
    async stop(): Promise<{ points: QueuePoint[]; peak: Record<string, number> }> {
      running = false;
      await loop;
      const peak: Record<string, number> = {};
      for (const p of points)
        for (const [task, n] of Object.entries(p.jobs)) peak[task] = Math.max(peak[task] ?? 0, n);
      return { points, peak };
    },
  };
}

export interface TableScans {
  seqScans: number;
  /** Rows read by sequential scans. */
  seqRowsRead: number;
  indexScans: number;
}

/**
 * Scans of graphile-worker's job table during a phase (pg_stat_user_tables): a job fetch
 * planned as a sequential scan reads the whole queue every time, which shows here.
 */
export async function jobTableScans(pool: pg.Pool) {
  const read = async (): Promise<TableScans> => {
    const { rows } = await pool.query<{ seq: string; tup: string; idx: string }>(
      `select seq_scan as seq, seq_tup_read as tup, coalesce(idx_scan, 0) as idx from pg_stat_user_tables
        where schemaname = 'graphile_worker' and relname = '_private_jobs'`,
    );
    const row = rows[0];
    return {
      seqScans: Number(row?.seq ?? 0),
      seqRowsRead: Number(row?.tup ?? 0),
      indexScans: Number(row?.idx ?? 0),
    };
  };
  const before = await read();
  return async (): Promise<TableScans> => {
    // Backends report their counters at most once a second.
    await sleep(1_100);
    const after = await read();
    return {
      seqScans: after.seqScans - before.seqScans,
      seqRowsRead: after.seqRowsRead - before.seqRowsRead,
      indexScans: after.indexScans - before.indexScans,
    };
  };
}

/**
 * The jobs' benchmark (`node --import tsx src/jobs.ts` from bench/, `pnpm --filter @crm/bench
 * bench:jobs`; part of `pnpm bench`), on a fresh database, with events and history kept:
 *
 * 1. GET one record's latency with no job running (the idle value): `BENCH_JOBS_READERS`
 *    clients one after another for `BENCH_JOBS_PROBE_SECONDS`.
 * 2. An import of `BENCH_JOBS_ROWS` CSV rows (default 1,000,000) with five custom fields,
 *    streamed from a file on disk: upload time, then the time until the job SUCCEEDED.
 *    GET one's latency is measured again while it runs, and every process's RSS sampled.
 * 3. An export of the folder (the imported records) as CSV: the time until SUCCEEDED and the
 *    download's, with GET one measured meanwhile; the file's lines are counted.
 *
 * API and worker run as processes of their own, as `npm start` runs them, so that each one's
 * memory is its own and a deployment's. Writes
 * bench/results/jobs.json and prints a table. Everything it starts is stopped at the end.
 */

import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { finished, pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { addFolderField, IMPORT_CHUNKS_IN_FLIGHT, missing } from '@crm/domain';
import type pg from 'pg';
import { createCleanups, runBench } from './cleanup.ts';
import { openBenchDatabase } from './database.ts';
import { intEnv } from './env.ts';
import { toJson } from './report.ts';
import { createFixture, ownerOf } from './seed.ts';
import { percentile, round, sleep } from './time.ts';
import { launchService } from './workflows/service.ts';

const benchDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS_FILE = join(benchDir, 'results', 'jobs.json');

const config = {
  rows: intEnv('BENCH_JOBS_ROWS', 1_000_000, 1),
  /** Clients reading one record at a time each, while nothing runs and while a job runs. */
  readers: intEnv('BENCH_JOBS_READERS', 2, 1),
  /** How often each reader reads, ms: two readers every 50 ms, 40 reads a second in all. */
  readEveryMs: intEnv('BENCH_JOBS_READ_EVERY_MS', 50, 1),
  /** How long the idle value is measured. */
  probeSeconds: intEnv('BENCH_JOBS_PROBE_SECONDS', 20, 1),
  /** The workers' IMPORT_CHUNKS_IN_FLIGHT (docs/jobs.md, "How jobs share the service"). */
  chunksInFlight: intEnv('BENCH_JOBS_CHUNKS_IN_FLIGHT', IMPORT_CHUNKS_IN_FLIGHT, 1),
  /** A read slower than this (ms) is logged with its wall-clock time (0: none), to set beside BENCH_PG_LOG. */
  slowReadMs: intEnv('BENCH_JOBS_SLOW_READ_MS', 0, 0),
  /** The longest a job may take before the run fails. */
  jobWaitMs: intEnv('BENCH_JOBS_WAIT_MS', 3_600_000, 1),
};
const TARGETS = { importSeconds: 300, exportSeconds: 60, rssMiB: 250, getOneP95Ratio: 2 };

const t0 = performance.now();
const log = (line: string) =>
  process.stderr.write(`[jobs +${((performance.now() - t0) / 1000).toFixed(1)}s] ${line}\n`);
const cleanups = createCleanups(log);

/** Resident memory of a process, MiB (Linux); 0 once it is gone. */
async function rssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return round(kb / 1024, 1);
}

/** The largest RSS of each named process, sampled every second until `stop()`. */
function sampleRss(pids: Record<string, number>) {
  const largest: Record<string, number> = Object.fromEntries(Object.keys(pids).map((name) => [name, 0]));
  const timer = setInterval(() => {
    for (const [name, pid] of Object.entries(pids)) {
      void rssMiB(pid).then((mib) => {
        largest[name] = Math.max(largest[name] ?? 0, mib);
      });
    }
  }, 1_000);
  return {
    stop: () => {
      clearInterval(timer);
      return largest;
    },
  };
}

/**
 * PUTs the file at `path` as the job's CSV, streamed. Through `node:http` rather than `fetch`:
 * Node 20's `fetch` reads a streamed request body ahead of the socket, so this process held
 * most of the 85 MiB file while the service took it in: a client of its own uploading 120 MB to a
 * slow server grew to 182–190 MiB through `fetch`, to 72 MiB with the file piped into the
 * request, which waits for the socket to drain.
 */
async function uploadFile(url: string, authorization: string, path: string): Promise<void> {
  const req = request(url, { method: 'PUT', headers: { authorization, 'content-type': 'text/csv' } });
  const answered = new Promise<{ status: number; text: string }>((ok, fail) => {
    req.once('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (part: string) => {
        text += part;
      });
      res.once('end', () => ok({ status: res.statusCode ?? 0, text }));
      res.once('error', fail);
    });
    req.once('error', fail);
  });
  const [, { status, text }] = await Promise.all([pipeline(createReadStream(path), req), answered]);
  if (status !== 202) throw new Error(`the upload answered ${status}: ${text}`);
}

/**
 * GET one record, `config.readers` clients each sending one every `config.readEveryMs` (or as
 * soon as its last answer came, when that took longer), until `done()` says stop: the
 * latencies, sorted, in ms. Paced, so that the readers measure the service rather than load it.
 */
async function readWhile(
  url: string,
  headers: Record<string, string>,
  ids: string[],
  done: () => boolean,
): Promise<number[]> {
  const took: number[] = [];
  let n = 0;
  await Promise.all(
    Array.from({ length: config.readers }, async () => {
      while (!done()) {
        const id = ids[n++ % ids.length] ?? missing('an id to read');
        const began = performance.now();
        const res = await fetch(`${url}/api/v1/records/${id}`, { headers });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`GET one answered ${res.status}`);
        const ms = performance.now() - began;
        took.push(ms);
        if (config.slowReadMs > 0 && ms > config.slowReadMs)
          log(`slow read: ${round(ms, 1)} ms, ended ${new Date().toISOString()}`);
        await sleep(Math.max(0, config.readEveryMs - ms));
      }
    }),
  );
  return took.sort((a, b) => a - b);
}

const summary = (sorted: number[]) => ({
  requests: sorted.length,
  p50: round(percentile(sorted, 50), 2),
  p95: round(percentile(sorted, 95), 2),
  p99: round(percentile(sorted, 99), 2),
});

/** The CSV of `rows` people with five custom fields, written to `path` a row at a time. */
async function writeCsv(path: string, rows: number): Promise<number> {
  const out = createWriteStream(path);
  const cities = ['Lisbon', 'Gent', 'Kraków', 'São Paulo', 'Osaka', 'Nairobi', 'Zürich'];
  const stages = ['Lead', 'Prospect', 'Customer', 'Churned'];
  out.write('Name,Email,Company,Lifecycle,Score,City,Since\n');
  for (let i = 0; i < rows; i++) {
    const day = String(1 + (i % 28)).padStart(2, '0');
    const line = `"Person ${i}, Jr.",person-${i}@example.com,Company ${i % 5_000},${stages[i % 4]},${i % 1_000},${cities[i % 7]},2025-03-${day}\n`;
    if (!out.write(line)) await new Promise<void>((ok) => out.once('drain', () => ok()));
  }
  out.end();
  await finished(out);
  return (await stat(path)).size;
}

/**
 * BENCH_PG_STAT_STATEMENTS=1 (embedded PostgreSQL only): the server loads pg_stat_statements,
 * and the statements of the import are logged after it, most time first: where a row's time in
 * the database goes (docs/performance.md, "Jobs").
 */
const STAT_STATEMENTS = process.env.BENCH_PG_STAT_STATEMENTS === '1';

async function logStatements(pool: pg.Pool) {
  const { rows } = await pool.query<{ ms: string; calls: string; rows: string; query: string }>(
    `select round(total_exec_time)::text as ms, calls::text, rows::text,
            regexp_replace(left(query, 160), '\\s+', ' ', 'g') as query
       from pg_stat_statements order by total_exec_time desc limit 20`,
  );
  for (const row of rows) log(`  ${row.ms} ms, ${row.calls} calls, ${row.rows} rows: ${row.query}`);
}

async function main() {
  const startedAt = new Date();
  const loadAtStart = loadavg()[0] ?? missing('loadavg()[0]');
  const { database, pool, db } = await openBenchDatabase(log, cleanups);
  const fixture = await createFixture(db, pool);
  const owner = ownerOf(fixture);
  await addFolderField(db, owner, { id: fixture.folderId, key: 'city', label: 'City', type: 'TEXT' });
  await addFolderField(db, owner, {
    id: fixture.folderId,
    key: 'since',
    label: 'Customer since',
    type: 'DATE',
  });
  const headers = { authorization: `Bearer ${fixture.apiKey}`, 'content-type': 'application/json' };

  const dir = await mkdtemp(join(tmpdir(), 'crm-bench-jobs-'));
  cleanups.push({ what: 'removing the files', run: () => rm(dir, { recursive: true, force: true }) });
  const csv = join(dir, 'people.csv');
  const bytes = await writeCsv(csv, config.rows);
  log(`wrote ${config.rows} rows, ${round(bytes / 2 ** 20)} MiB`);

  // As `npm start` runs it: the server's build (docs/performance.md, "Jobs").
  const service = (role: 'api' | 'worker') =>
    launchService(
      database.connectionString,
      role,
      cleanups,
      { WORKER_POLL_INTERVAL_MS: '100', IMPORT_CHUNKS_IN_FLIGHT: String(config.chunksInFlight) },
      { loader: 'script', readyWithinMs: 180_000 },
    );
  const api = await service('api');
  const worker = await service('worker');
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${api.url}/api/v1${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
    return JSON.parse(text) as { data: unknown };
  };
  const callJob = async (method: string, path: string, body?: unknown) =>
    (await call(method, path, body)).data as Record<string, unknown> & { id: string; status: string };

  // The records GET one reads: a hundred, made before any job runs.
  const seeded = await call('POST', '/records/batch', {
    items: Array.from({ length: 100 }, (_, i) => ({ folderId: fixture.folderId, title: `Reader ${i}` })),
  });
  const ids = (seeded.data as { data: { id: string } }[]).map((item) => item.data.id);
  await readWhile(
    api.url,
    headers,
    ids,
    (() => {
      const until = Date.now() + 3_000;
      return () => Date.now() > until;
    })(),
  );
  const idleUntil = Date.now() + config.probeSeconds * 1000;
  const idle = await readWhile(api.url, headers, ids, () => Date.now() > idleUntil);
  log(`GET one idle: p95 ${summary(idle).p95} ms`);

  const pids = {
    api: api.process.pid ?? 0,
    worker: worker.process.pid ?? 0,
    bench: process.pid,
  };
  /** Polls the job until it ends, reading records meanwhile. */
  const follow = async (id: string) => {
    const seen: { ended: (Record<string, unknown> & { status: string }) | null; stop: boolean } = {
      ended: null,
      stop: false,
    };
    const deadline = Date.now() + config.jobWaitMs;
    const poll = (async () => {
      while (!seen.ended) {
        const job = await callJob('GET', `/jobs/${id}`);
        if (['SUCCEEDED', 'FAILED', 'CANCELLED'].includes(job.status)) seen.ended = job;
        else if (Date.now() > deadline) throw new Error(`job ${id} did not end in time`);
        else await sleep(1_000);
      }
    })().finally(() => {
      seen.stop = true;
    });
    const reads = readWhile(api.url, headers, ids, () => seen.stop);
    await poll;
    const job = seen.ended ?? missing('the ended job');
    if (job.status !== 'SUCCEEDED') throw new Error(`job ${id} ended ${job.status}: ${toJson(job)}`);
    return { job, reads: await reads };
  };

  // 2. The import.
  if (STAT_STATEMENTS) {
    await pool.query('create extension if not exists pg_stat_statements');
    await pool.query('select pg_stat_statements_reset()');
  }
  const rssImport = sampleRss(pids);
  const importStarted = performance.now();
  const created = await callJob('POST', '/jobs/imports', {
    folderId: fixture.folderId,
    format: 'csv',
    mapping: {
      Name: 'title',
      Email: 'email',
      Company: 'data.company',
      Lifecycle: 'data.lifecycle',
      Score: 'data.score',
      City: 'data.city',
      Since: 'data.since',
    },
  });
  await uploadFile(`${api.url}/api/v1/jobs/${created.id}/file`, headers.authorization, csv);
  const uploadSeconds = (performance.now() - importStarted) / 1000;
  log(`uploaded in ${round(uploadSeconds)} s`);
  const imported = await follow(created.id);
  const importSeconds = (performance.now() - importStarted) / 1000;
  const importRss = rssImport.stop();
  log(`imported in ${round(importSeconds)} s: ${toJson(imported.job.progress)}`);
  if (STAT_STATEMENTS) await logStatements(pool);

  // 3. The export.
  const rssExport = sampleRss(pids);
  const exportStarted = performance.now();
  const exportJob = await callJob('POST', '/jobs/exports', { folderId: fixture.folderId, format: 'csv' });
  const exported = await follow(exportJob.id);
  const exportJobSeconds = (performance.now() - exportStarted) / 1000;
  const download = await fetch(`${api.url}/api/v1/jobs/${exportJob.id}/file`, {
    headers: { authorization: headers.authorization },
  });
  if (download.status !== 200 || !download.body) throw new Error(`the download answered ${download.status}`);
  let lines = 0;
  let downloaded = 0;
  for await (const chunk of download.body as unknown as AsyncIterable<Uint8Array>) {
    downloaded += chunk.length;
    for (const byte of chunk) if (byte === 10) lines++;
  }
  const exportSeconds = (performance.now() - exportStarted) / 1000;
  const exportRss = rssExport.stop();
  log(`exported in ${round(exportSeconds)} s, ${lines} lines`);
  const expectedLines = config.rows + ids.length + 1;
  if (lines !== expectedLines) throw new Error(`the export has ${lines} lines, not ${expectedLines}`);

  const idleP95 = summary(idle).p95;
  const duringImport = summary(imported.reads);
  const duringExport = summary(exported.reads);
  const largest = (rss: Record<string, number>) => Math.max(...Object.values(rss));
  const results = {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    machine: {
      cpus: availableParallelism(),
      node: process.version,
      loadAverage: { start: round(loadAtStart, 2), end: round(loadavg()[0] ?? missing('loadavg()[0]'), 2) },
    },
    database: database.server,
    settings: config,
    file: { rows: config.rows, customFields: 5, mib: round(bytes / 2 ** 20) },
    import: {
      uploadSeconds: round(uploadSeconds),
      seconds: round(importSeconds),
      rowsPerSecond: round(config.rows / importSeconds, 0),
      progress: imported.job.progress,
      rssMiB: importRss,
    },
    export: {
      jobSeconds: round(exportJobSeconds),
      seconds: round(exportSeconds),
      recordsPerSecond: round((config.rows + ids.length) / exportSeconds, 0),
      mib: round(downloaded / 2 ** 20),
      rssMiB: exportRss,
    },
    getOneMs: { idle: summary(idle), duringImport, duringExport },
    targets: {
      importSeconds: {
        target: TARGETS.importSeconds,
        value: round(importSeconds),
        met: importSeconds <= TARGETS.importSeconds,
      },
      exportSeconds: {
        target: TARGETS.exportSeconds,
        value: round(exportSeconds),
        met: exportSeconds <= TARGETS.exportSeconds,
      },
      rssMiB: {
        target: TARGETS.rssMiB,
        value: Math.max(largest(importRss), largest(exportRss)),
        met: Math.max(largest(importRss), largest(exportRss)) < TARGETS.rssMiB,
      },
      getOneP95Ratio: {
        target: TARGETS.getOneP95Ratio,
        value: round(Math.max(duringImport.p95, duringExport.p95) / idleP95, 2),
        met: Math.max(duringImport.p95, duringExport.p95) <= TARGETS.getOneP95Ratio * idleP95,
      },
    },
  };
  await mkdir(dirname(RESULTS_FILE), { recursive: true });
  await writeFile(RESULTS_FILE, `${toJson(results)}\n`);
  const t = results.targets;
  process.stdout.write(
    [
      '',
      `Jobs (${config.rows} CSV rows, 5 custom fields, ${results.file.mib} MiB)`,
      `  import: ${results.import.seconds} s (upload ${results.import.uploadSeconds} s), ${results.import.rowsPerSecond} rows/s  target ≤ ${TARGETS.importSeconds} s: ${t.importSeconds.met ? 'met' : 'MISSED'}`,
      `  export: ${results.export.seconds} s (job ${results.export.jobSeconds} s), ${results.export.recordsPerSecond} records/s  target ≤ ${TARGETS.exportSeconds} s: ${t.exportSeconds.met ? 'met' : 'MISSED'}`,
      `  largest RSS: import ${toJson(importRss)}, export ${toJson(exportRss)} MiB  target < ${TARGETS.rssMiB}: ${t.rssMiB.met ? 'met' : 'MISSED'}`,
      `  GET one p95: idle ${idleP95} ms, during the import ${duringImport.p95} ms, during the export ${duringExport.p95} ms  target ≤ ${TARGETS.getOneP95Ratio}× idle: ${t.getOneP95Ratio.met ? 'met' : 'MISSED'}`,
      `  results: ${RESULTS_FILE}`,
      '',
    ].join('\n'),
  );
}

await runBench(main, cleanups, log);

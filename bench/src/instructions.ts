/**
 * `pnpm bench:instructions`: CPU instructions per request of the service and the bare
 * server, counted by valgrind's callgrind, which unlike time does not depend on what else
 * the machine runs. Seeds a small database, starts each server under callgrind (with
 * instrumentation off), warms it up, then counts the instructions its process executes
 * (all threads, user space only) over a fixed number of requests per scenario.
 */

import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { freePort } from '@crm/db';
import { missing } from '@crm/domain';
import autocannon from 'autocannon';
import { createCleanups } from './cleanup.ts';
import { openBenchDatabase } from './database.ts';
import { intEnv } from './env.ts';
import { type Child, waitUntilReady } from './processes.ts';
import { SCENARIOS, type Scenario, type ScenarioContext } from './scenarios.ts';
import { createFixture, defaultPipeline, seedDeals, seedRecords, seedTasks } from './seed.ts';
import { sleep } from './time.ts';

const run = promisify(execFile);
const benchDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = resolve(benchDir, '..');

const WARMUP = intEnv('BENCH_INSTR_WARMUP', 3000, 1);
const REQUESTS = intEnv('BENCH_INSTR_REQUESTS', 1000, 1);
const chosen = (process.env.BENCH_SCENARIOS ?? 'get-one,list').split(',').map((s) => s.trim());
const unknown = chosen.filter((id) => !SCENARIOS.some((s) => s.id === id));
if (unknown.length > 0) throw new Error(`BENCH_SCENARIOS: unknown scenario ${unknown.join(', ')}`);
const scenarios = SCENARIOS.filter((s) => chosen.includes(s.id));
const servers = (process.env.BENCH_INSTR_SERVERS ?? 'service,bare').split(',').map((s) => s.trim());

const t0 = performance.now();
const log = (line: string) =>
  process.stderr.write(`[instr +${((performance.now() - t0) / 1000).toFixed(1)}s] ${line}\n`);
const cleanups = createCleanups(log);

/** The service starts as `npm start` starts it: its script registers the TypeScript loader itself. */
const SCRIPTS: Record<string, string[]> = {
  service: ['apps/server/scripts/start.mjs'],
  bare: ['--import', import.meta.resolve('tsx'), 'bench/src/bare-server.ts'],
  floor: ['--import', import.meta.resolve('tsx'), 'bench/src/bare-server.ts'],
};

/** Starts a server's script under callgrind with instrumentation off. */
async function startUnderCallgrind(name: string, connectionString: string, outDir: string): Promise<Child> {
  const script = SCRIPTS[name];
  if (!script) throw new Error(`BENCH_INSTR_SERVERS: unknown server ${name}`);
  const port = await freePort();
  const child: ChildProcess = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--instr-atstart=no',
      // One count per thread: only the main thread's (file suffix -01) is the request path;
      // V8's background compiler and garbage-collector helpers run when they happen to.
      '--separate-threads=yes',
      `--callgrind-out-file=${join(outDir, `${name}.%p.out`)}`,
      process.execPath,
      ...script,
    ],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        DATABASE_URL: connectionString,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_POOL_SIZE: '10',
        ROLE: 'api',
        OPS_PORT: '0',
        LOG_LEVEL: 'warn',
        ...(name === 'floor' ? { BARE_FLOOR: '1' } : {}),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    },
  );
  const lines: string[] = [];
  const collect = (chunk: Buffer) => {
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    lines.splice(0, Math.max(0, lines.length - 40));
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const handle: Child = {
    name,
    url: `http://127.0.0.1:${port}`,
    process: child,
    output: () => lines.join('\n'),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => {
        try {
          process.kill(-(child.pid ?? missing('child.pid')), 'SIGKILL');
        } catch {
          // already gone
        }
      }, 30_000);
      await exited;
      clearTimeout(timer);
    },
  };
  cleanups.push({ what: `stopping ${name}`, run: () => handle.stop() });
  return handle;
}

/**
 * Sends callgrind a command. A server idle in epoll_wait only reads it once woken, so it is
 * sent a /healthz now and then until the command is acknowledged.
 */
async function callgrind(child: Child, ...args: string[]) {
  let done = false;
  // vgdb names its pipes after the HOST variable, which the server is given as its address.
  const command = run('callgrind_control', [...args, String(child.process.pid)], {
    env: { ...process.env, HOST: '127.0.0.1' },
  }).finally(() => {
    done = true;
  });
  while (!done) {
    await fetch(`${child.url}/healthz`).catch(() => {});
    await Promise.race([command, sleep(100)]).catch(() => {});
  }
  const { stdout } = await command;
  if (!/OK/.test(stdout)) throw new Error(`callgrind_control ${args.join(' ')}: ${stdout.trim()}`);
}

/** Main-thread instructions of every dump of `pid` so far, summed (each dump holds the count since the last). */
async function instructionsDumped(outDir: string, name: string, pid: number): Promise<number> {
  let total = 0;
  for (const file of await readdir(outDir)) {
    if (!file.startsWith(`${name}.${pid}.out`) || !file.endsWith('-01')) continue;
    const text = await readFile(join(outDir, file), 'utf8');
    const line = /^totals:\s+(\d+)/m.exec(text) ?? /^summary:\s+(\d+)/m.exec(text);
    if (line) total += Number(line[1]);
  }
  return total;
}

async function fire(url: string, scenario: Scenario, context: ScenarioContext, amount: number, tag: string) {
  const result = await autocannon({
    url,
    connections: 4,
    amount,
    timeout: 60,
    headers: { authorization: `Bearer ${context.apiKey}`, 'content-type': 'application/json' },
    requests: scenario.requests(context, tag),
  });
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(
      `${scenario.id}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
  return result['2xx'];
}

async function main() {
  const { database, pool, db } = await openBenchDatabase(log, cleanups);
  const fixture = await createFixture(db, pool);
  const to = new Date(Date.now() - 60_000);
  const from = new Date(to.getTime() - 3 * 365 * 24 * 3600_000);
  const recordIds = await seedRecords(pool, { ...fixture, count: 5000, seed: 1, from, to });
  const { pipelineId, stageIds } = await defaultPipeline(pool, fixture.workspaceId);
  const movableDeals = await seedDeals(pool, {
    workspaceId: fixture.workspaceId,
    pipelineId,
    stageIds,
    recordIds,
    count: 500,
    seed: 3,
    from,
    to,
  });
  await seedTasks(pool, {
    workspaceId: fixture.workspaceId,
    userId: fixture.userId,
    recordIds,
    count: 2000,
    seed: 4,
    from,
    to,
  });
  await pool.query('analyze');
  const context: ScenarioContext = {
    apiKey: fixture.apiKey,
    folderId: fixture.folderId,
    lifecycles: fixture.fields.find((f) => f.key === 'lifecycle')?.options ?? [],
    recordIds,
    pipelineId,
    stageIds,
    movableDeals,
  };
  const outDir = await mkdtemp(join(tmpdir(), 'crm-bench-callgrind-'));
  if (process.env.BENCH_INSTR_KEEP === '1') {
    log(`callgrind files kept in ${outDir} (callgrind_annotate reads them)`);
  } else {
    cleanups.push({
      what: 'removing callgrind files',
      run: () => rm(outDir, { recursive: true, force: true }),
    });
  }

  const results: Record<string, Record<string, number>> = {};
  for (const name of servers) {
    log(`starting ${name} under callgrind (slow: a minute or two)`);
    const child = await startUnderCallgrind(name, database.connectionString, outDir);
    await waitUntilReady(child, 600_000);
    const pid = child.process.pid ?? missing('child.process.pid');
    results[name] = {};
    for (const scenario of scenarios) {
      log(`${name} ${scenario.id}: ${WARMUP} requests to warm up`);
      await fire(child.url, scenario, context, WARMUP, `${name}-${scenario.id}-w`);
      const before = await instructionsDumped(outDir, name, pid);
      await callgrind(child, '-i', 'on');
      const answered = await fire(child.url, scenario, context, REQUESTS, `${name}-${scenario.id}`);
      await callgrind(child, '-i', 'off');
      await callgrind(child, '-d');
      // The dump is written when the process next gets to it: wait for its count.
      let counted = 0;
      for (let tries = 0; tries < 60 && counted <= 0; tries++) {
        await sleep(500);
        counted = (await instructionsDumped(outDir, name, pid)) - before;
      }
      if (counted <= 0) throw new Error(`no callgrind dump from ${name} (${await readdir(outDir)})`);
      results[name][scenario.id] = Math.round(counted / answered);
      log(`  ${Math.round(counted / answered).toLocaleString('en-US')} instructions a request`);
    }
    await child.stop();
  }
  const rows = scenarios.map((s) => {
    const service = results.service?.[s.id];
    const bare = results.bare?.[s.id];
    const ratio = service && bare ? ` (bare/service ${(bare / service).toFixed(2)})` : '';
    return `${s.id.padEnd(12)} ${servers.map((n) => `${n} ${results[n]?.[s.id]?.toLocaleString('en-US')}`).join(', ')}${ratio}`;
  });
  process.stdout.write(
    `Instructions a request (callgrind, ${REQUESTS} requests after ${WARMUP}):\n${rows.join('\n')}\n`,
  );
}

let exitCode = 0;
try {
  await main();
} catch (error) {
  log(`FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  exitCode = 1;
} finally {
  await cleanups.cleanUp();
}
process.exit(exitCode);

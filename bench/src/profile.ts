/**
 * `pnpm --filter @crm/bench bench:profile`: where the service spends its CPU on one load
 * scenario. Seeds a small database, starts the service with V8's `--cpu-prof`, loads it
 * with the scenario (16 connections, BENCH_PROFILE_SECONDS, default 15, after a 3 s
 * warm-up), stops it so the profile is written, and prints the functions with the most
 * self time, grouped by package (node_modules/<name>, node: internals, the project's own
 * files), in µs per request. The profile itself is kept for Chrome's DevTools.
 *
 * BENCH_SCENARIOS picks the scenario (default get-one; `batch-link` seeds people, companies
 * and links first, as step 9 of the benchmark does on a smaller scale); DATABASE_URL as for
 * the benchmark.
 */

import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@crm/db';
import { missing } from '@crm/domain';
import autocannon from 'autocannon';
import { createCleanups } from './cleanup.ts';
import { openBenchDatabase } from './database.ts';
import { intEnv } from './env.ts';
import { startServiceProcess, waitUntilReady } from './processes.ts';
import { batchLinkScenario } from './relations.ts';
import { createRelationFolders, planRelations, seedRelations } from './relations-seed.ts';
import { SCENARIOS, type Scenario, type ScenarioContext } from './scenarios.ts';
import { createFixture, defaultPipeline, seedDeals, seedRecords } from './seed.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SECONDS = intEnv('BENCH_PROFILE_SECONDS', 15, 1);
const id = process.env.BENCH_SCENARIOS?.trim() || 'get-one';
const known = SCENARIOS.find((s) => s.id === id);
if (!known && id !== 'batch-link') throw new Error(`BENCH_SCENARIOS: unknown scenario ${id}`);

const log = (line: string) => process.stderr.write(`[profile] ${line}\n`);
const cleanups = createCleanups(log);

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time per function (µs), from a V8 CPU profile. */
function selfTimes(profile: CpuProfile): Map<string, number> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const times = new Map<string, number>();
  profile.samples.forEach((sample, i) => {
    const frame = byId.get(sample)?.callFrame;
    if (!frame) return;
    const name = `${frame.functionName || '(anonymous)'} ${where(frame.url)}:${frame.lineNumber + 1}`;
    times.set(name, (times.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  return times;
}

/** A file as a package name (`node_modules/<pkg>`), `node:` for internals, or its path in the project. */
function where(url: string): string {
  const modules = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(url);
  if (modules) return `${modules[1]}/${modules[2]}`;
  if (url.startsWith('node:') || url === '') return url || '(native)';
  return url.replace(`file://${repoRoot}/`, '');
}

try {
  const { database, pool, db } = await openBenchDatabase(log, cleanups);
  const fixture = await createFixture(db, pool);
  const to = new Date();
  const from = new Date(to.getTime() - 365 * 86_400_000);
  // People with a company and a manager in `data` for batch-link (relations-seed.ts).
  const plan = id === 'batch-link' ? planRelations(20_000, 5) : undefined;
  const recordIds = await seedRecords(pool, {
    ...fixture,
    count: plan ? 20_000 : 2000,
    seed: 1,
    from,
    to,
    ...(plan ? { relate: plan.relate } : {}),
  });
  const scenario: Pick<Scenario, 'id' | 'requests'> = plan
    ? batchLinkScenario(
        plan,
        await seedRelations(pool, {
          fixture,
          folders: await createRelationFolders(db, pool, fixture),
          plan,
          links: 40_000,
          seed: 6,
          from,
          to,
        }),
        8,
        'links',
      )
    : (known ?? missing('the scenario'));
  const { pipelineId, stageIds } = await defaultPipeline(pool, fixture.workspaceId);
  const movableDeals = await seedDeals(pool, {
    workspaceId: fixture.workspaceId,
    pipelineId,
    stageIds,
    recordIds,
    count: 200,
    seed: 3,
    from,
    to,
  });
  const profileDir = await mkdtemp(join(tmpdir(), 'crm-profile-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const service = startServiceProcess({
    repoRoot,
    url,
    cpuProfileDir: profileDir,
    env: {
      DATABASE_URL: database.connectionString,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_POOL_SIZE: '10',
      ROLE: 'api',
      OPS_PORT: '0',
      LOG_LEVEL: 'warn',
    },
  });
  cleanups.push({ what: 'stopping the service', run: () => service.stop() });
  await waitUntilReady(service);
  const context: ScenarioContext = {
    apiKey: fixture.apiKey,
    folderId: fixture.folderId,
    lifecycles: fixture.fields.find((f) => f.key === 'lifecycle')?.options ?? [],
    recordIds,
    pipelineId,
    stageIds,
    movableDeals,
  };
  const load = (seconds: number, tag: string) =>
    autocannon({
      url,
      connections: 16,
      duration: seconds,
      headers: { authorization: `Bearer ${fixture.apiKey}`, 'content-type': 'application/json' },
      requests: scenario.requests(context, tag),
    });
  await load(3, 'warm');
  log(`${scenario.id}: ${SECONDS} s at 16 connections`);
  const result = await load(SECONDS, 'measured');
  await service.stop();
  // Answers other than 2xx are a finding of their own: their statuses and the service's last lines.
  if (result.non2xx > 0) {
    log(`non-2xx answers: ${JSON.stringify(result.statusCodeStats)}`);
    log(`the service's last lines:\n${service.output().split('\n').slice(-20).join('\n')}`);
  }
  const file = (await readdir(profileDir)).find((name) => name.endsWith('.cpuprofile'));
  if (!file) throw new Error('the service wrote no CPU profile');
  const profile = JSON.parse(await readFile(join(profileDir, file), 'utf8')) as CpuProfile;
  const requests = result['2xx'] + result.non2xx + 3 * result.requests.average;
  const total = profile.timeDeltas.reduce((a, b) => a + b, 0);
  const rows = [...selfTimes(profile)]
    .filter(([name]) => !name.startsWith('(idle)'))
    .sort((a, b) => b[1] - a[1]);
  const idle = selfTimes(profile).get('(idle) (native):0') ?? 0;
  process.stdout.write(
    `${scenario.id}: ${Math.round(result.requests.average)} req/s, ${result.non2xx} non-2xx; busy ${Math.round(
      (total - idle) / requests,
    )} µs a request (whole life of the process, about ${Math.round(requests)} requests)\n\n` +
      rows
        .slice(0, 40)
        .map(([name, us]) => `${(us / requests).toFixed(1).padStart(7)} µs  ${name}`)
        .join('\n') +
      `\n\nProfile: ${join(profileDir, file)}\n`,
  );
} finally {
  await cleanups.cleanUp();
}

import { readFile } from 'node:fs/promises';
import { missing } from '@crm/domain';
import autocannon, { type RequestSpec, type Result } from 'autocannon';
import { createRandom, generateRecord, withListFields } from './data.ts';
import { HZ, treeBusy, treeRss, withOtherLoad } from './load.ts';
import type { SeededDeals } from './seed.ts';
import { round, sleep } from './time.ts';

export interface Target {
  /**
   * The real service; the bare server sending the same SQL; the floor, the bare server
   * sending the resource statement alone (no key lookup, no rate limit).
   */
  name: 'service' | 'bare' | 'floor';
  url: string;
  /** The server's process (its tree is measured for CPU per request; Linux only). */
  pid?: number;
  /** Where the server's statement and transaction counts are written (trace-sql.mjs). */
  sqlCounts?: string;
}

export interface LoadSettings {
  connections: number;
  /** Seconds measured. */
  duration: number;
  /** Seconds run first and thrown away. */
  warmup: number;
  /** The PostgreSQL server's main process, whose tree's CPU is counted per request (Linux only). */
  databasePid?: number;
}

export interface ScenarioContext {
  apiKey: string;
  folderId: string;
  /**
   * The folder's lifecycle options: created records get a lifecycle and a score as the
   * seeded ones do (withListFields), so the list queries meet the newest records alike.
   */
  lifecycles: readonly string[];
  /** Seeded record ids the get-one scenario rotates over (and deal-create links to). */
  recordIds: string[];
  /** The default Sales pipeline and its stages in order. */
  pipelineId: string;
  stageIds: string[];
  /**
   * The deals deal-move rotates over, with the stage each one is in (an index into
   * `stageIds`), kept up to date as requests are sent so every request really moves.
   */
  movableDeals: SeededDeals;
}

export interface Scenario {
  id:
    | 'get-one'
    | 'list'
    | 'create'
    | 'deal-create'
    | 'deal-move'
    | 'task-list'
    | 'batch-create'
    | 'record-patch'
    | 'batch-link';
  label: string;
  /** Lowest acceptable service/bare throughput ratio. */
  target: number;
  /** Lowest acceptable service/floor throughput ratio, for the scenarios measured against the floor. */
  floorTarget?: number;
  /**
   * Seconds a warm-up lasts at least, for a scenario whose requests take seconds under load:
   * a warm-up that no answer ends in time fails the run.
   */
  minWarmup?: number;
  /** Fresh request specs per run, so counters and bodies never repeat across runs. */
  requests(context: ScenarioContext, tag: string): RequestSpec[];
}

/** One measured autocannon run. */
export interface Run {
  requestsPerSecond: number;
  /** Completed 2xx responses divided by the measured seconds. */
  completedPerSecond: number;
  latencyP50: number;
  latencyP99: number;
  latencyMean: number;
  /** Responses received, 2xx or not. */
  total: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  seconds: number;
  /** 2xx responses of the warm-up before this run (0 without one). */
  warmupCompleted: number;
  /** CPU used by processes outside the benchmark during the run, in cores (Linux only). */
  otherCores?: number;
  /**
   * CPU time the server's processes used during the run divided by the responses it sent, in
   * µs (Linux only). Much less sensitive to other work on the machine than req/s.
   */
  cpuPerRequestUs?: number;
  /** CPU time PostgreSQL's processes used during the run per response, in µs (Linux only). */
  databaseCpuPerRequestUs?: number;
  /** Highest resident memory of the server's processes during the run, in MiB (Linux only). */
  peakRssMiB?: number;
  /** Statements the server sent PostgreSQL per response. */
  statementsPerRequest?: number;
  /** Transactions per response: a statement outside BEGIN … COMMIT counts as one. */
  transactionsPerRequest?: number;
}

/** A server's runs of one scenario, summarised: means of the runs, sums of the counts. */
export interface Measurement
  extends Omit<
    Run,
    | 'seconds'
    | 'warmupCompleted'
    | 'otherCores'
    | 'cpuPerRequestUs'
    | 'databaseCpuPerRequestUs'
    | 'peakRssMiB'
    | 'statementsPerRequest'
    | 'transactionsPerRequest'
  > {
  /** Mean of the runs' CPU per request, in µs (Linux only). */
  cpuPerRequestUs?: number;
  /** Mean of the runs' PostgreSQL CPU per request, in µs (Linux only). */
  databaseCpuPerRequestUs?: number;
  /** The highest of the runs' peak resident memory, in MiB (Linux only). */
  peakRssMiB?: number;
  /** Mean of the runs' statements per request. */
  statementsPerRequest?: number;
  /** Mean of the runs' transactions per request. */
  transactionsPerRequest?: number;
  target: Target['name'];
  runs: Run[];
}

export const SCENARIOS: Scenario[] = [
  {
    id: 'get-one',
    label: 'GET /records/:id',
    target: 0.6,
    floorTarget: 0.7,
    requests: ({ recordIds }) => {
      let next = Math.floor(Math.random() * recordIds.length);
      return [
        {
          method: 'GET',
          setupRequest: (request) => {
            next = (next + 1) % recordIds.length;
            return { ...request, path: `/api/v1/records/${recordIds[next]}` };
          },
        },
      ];
    },
  },
  {
    id: 'list',
    label: 'GET /records?pageSize=50',
    target: 0.6,
    floorTarget: 0.6,
    requests: () => [{ method: 'GET', path: '/api/v1/records?pageSize=50' }],
  },
  {
    id: 'create',
    label: 'POST /records',
    target: 0.5,
    floorTarget: 0.4,
    requests: ({ folderId, lifecycles }, tag) => {
      const random = createRandom(tag.length * 7919 + Date.now());
      let n = 0;
      return [
        {
          method: 'POST',
          setupRequest: (request) => {
            n++;
            const record = withListFields(generateRecord(random), random, lifecycles, true);
            const body = {
              folderId,
              title: record.title,
              // Distinct per request, whatever the generator picked.
              email: `bench.${tag}.${n}@example.com`,
              phone: record.phone,
              data: record.data,
            };
            return { ...request, path: '/api/v1/records', body: JSON.stringify(body) };
          },
        },
      ];
    },
  },
  {
    id: 'deal-create',
    label: 'POST /deals',
    target: 0.5,
    requests: ({ pipelineId, recordIds }, tag) => {
      const random = createRandom(tag.length * 104729 + Date.now());
      // Distinct amounts within a run: n × a prime coprime with 10^9 cents, offset per run.
      const base = Math.floor(random() * 1_000_000_000);
      let n = 0;
      return [
        {
          method: 'POST',
          setupRequest: (request) => {
            n++;
            const company = generateRecord(random).data.company ?? 'Solo Buyer';
            const body: Record<string, unknown> = {
              pipelineId,
              title: `${company}: ${tag} deal ${n}`,
              amount: ((base + n * 7919) % 1_000_000_000) / 100,
            };
            // One in three linked to a seeded record (locked FOR SHARE, snapshot in the event).
            if (n % 3 === 0) body.recordId = recordIds[Math.floor(random() * recordIds.length)];
            return { ...request, path: '/api/v1/deals', body: JSON.stringify(body) };
          },
        },
      ];
    },
  },
  {
    id: 'deal-move',
    label: 'PATCH /deals/:id (stage)',
    target: 0.5,
    requests: ({ stageIds, movableDeals }) => {
      const { ids, stageIndex } = movableDeals;
      const position = new Map(ids.map((id, i) => [id, i]));
      const stageAt = new Map(stageIds.map((id, i) => [id, i]));
      let next = Math.floor(Math.random() * ids.length);
      return [
        {
          method: 'PATCH',
          setupRequest: (request) => {
            next = (next + 1) % ids.length;
            // The next stage of the pipeline, cyclically: never the deal's current one. Counted
            // as done at once; a request built but never sent (when a run stops) leaves the
            // deal one stage behind, which the next request still moves.
            const stage = ((stageIndex[next] ?? missing('stageIndex[next]')) + 1) % stageIds.length;
            stageIndex[next] = stage;
            return {
              ...request,
              path: `/api/v1/deals/${ids[next]}`,
              body: JSON.stringify({ stageId: stageIds[stage] }),
            };
          },
          // The stage the server reports is the truth: it corrects any such drift.
          onResponse: (status, body) => {
            if (status !== 200) return;
            const { data } = JSON.parse(body) as { data: { id: string; stageId: string } };
            const at = position.get(data.id);
            const stage = stageAt.get(data.stageId);
            if (at !== undefined && stage !== undefined) stageIndex[at] = stage;
          },
        },
      ];
    },
  },
  {
    id: 'task-list',
    label: 'GET /tasks?status=OPEN&sort=dueAt',
    target: 0.6,
    requests: () => [{ method: 'GET', path: '/api/v1/tasks?status=OPEN&sort=dueAt&pageSize=50' }],
  },
];

async function fire(
  target: Target,
  requests: RequestSpec[],
  apiKey: string,
  connections: number,
  duration: number,
): Promise<Result> {
  return autocannon({
    url: target.url,
    connections,
    duration,
    timeout: 10,
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    requests,
  });
}

/** A warm-up run that is thrown away (unless `warmup` is 0), then the measured run. */
export async function measure(
  scenario: Scenario,
  target: Target,
  context: ScenarioContext,
  settings: LoadSettings,
  tag: string,
): Promise<Run> {
  let warmupCompleted = 0;
  if (settings.warmup > 0) {
    const warm = await fire(
      target,
      scenario.requests(context, `${tag}w`),
      context.apiKey,
      settings.connections,
      Math.max(settings.warmup, scenario.minWarmup ?? 0),
    );
    // A warm-up may end before its first answer (a batch of ONE values on cold pages takes
    // seconds under load); refusals, errors and timeouts still fail it.
    assertClean(scenario, target, warm, 'warm-up', { answerRequired: false });
    warmupCompleted = warm['2xx'];
  }
  const sqlBefore = await sqlCounts(target);
  const cpuBefore = serverTicks(target.pid);
  const databaseBefore = serverTicks(settings.databasePid);
  const rss = target.pid === undefined ? undefined : sampleRss(target.pid);
  const { result, otherCores } = await withOtherLoad(() =>
    fire(target, scenario.requests(context, tag), context.apiKey, settings.connections, settings.duration),
  );
  const cpuAfter = serverTicks(target.pid);
  const databaseAfter = serverTicks(settings.databasePid);
  const peakRssMiB = rss?.stop();
  const sqlAfter = await sqlCounts(target);
  assertClean(scenario, target, result, 'measured run');
  const answered = result['2xx'] + result.non2xx;
  const perRequest = (before: number | undefined, after: number | undefined) =>
    before === undefined || after === undefined || answered === 0
      ? undefined
      : round(((after - before) / HZ / answered) * 1e6);
  const cpuPerRequestUs = perRequest(cpuBefore, cpuAfter);
  const databaseCpuPerRequestUs = perRequest(databaseBefore, databaseAfter);
  const sqlPerRequest = (pick: (counts: SqlCounts) => number) =>
    sqlBefore && sqlAfter && answered > 0
      ? round((pick(sqlAfter) - pick(sqlBefore)) / answered, 3)
      : undefined;
  const statementsPerRequest = sqlPerRequest((c) => c.statements);
  const transactionsPerRequest = sqlPerRequest((c) => c.transactions);
  const statusCodes: Record<string, number> = {};
  for (const [code, stats] of Object.entries(result.statusCodeStats)) statusCodes[code] = stats.count;
  return {
    requestsPerSecond: round(result.requests.average),
    completedPerSecond: round(result['2xx'] / result.duration),
    latencyP50: result.latency.p50,
    latencyP99: result.latency.p99,
    latencyMean: round(result.latency.average, 2),
    total: result['2xx'] + result.non2xx,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
    seconds: result.duration,
    warmupCompleted,
    ...(otherCores === undefined ? {} : { otherCores }),
    ...(cpuPerRequestUs === undefined ? {} : { cpuPerRequestUs }),
    ...(databaseCpuPerRequestUs === undefined ? {} : { databaseCpuPerRequestUs }),
    ...(peakRssMiB === undefined ? {} : { peakRssMiB }),
    ...(statementsPerRequest === undefined ? {} : { statementsPerRequest }),
    ...(transactionsPerRequest === undefined ? {} : { transactionsPerRequest }),
  };
}

interface SqlCounts {
  statements: number;
  transactions: number;
}

/**
 * The server's statement and transaction counts so far. They are written every 250 ms while
 * they change, so this waits a little longer first: what the warm-up (or the run) sent is in.
 */
async function sqlCounts(target: Target): Promise<SqlCounts | undefined> {
  if (!target.sqlCounts) return undefined;
  await sleep(300);
  try {
    return JSON.parse(await readFile(target.sqlCounts, 'utf8')) as SqlCounts;
  } catch {
    return undefined;
  }
}

/** CPU ticks a process tree used so far; undefined without its pid or /proc. */
function serverTicks(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    return treeBusy(pid);
  } catch {
    return undefined;
  }
}

/** Samples the resident memory of a process tree every 100 ms until stopped; the peak in MiB. */
function sampleRss(pid: number): { stop(): number | undefined } {
  let peak: number | undefined;
  const sample = () => {
    try {
      peak = Math.max(peak ?? 0, treeRss(pid));
    } catch {
      // no /proc
    }
  };
  sample();
  const timer = setInterval(sample, 100);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peak === undefined ? undefined : round(peak / 2 ** 20, 1);
    },
  };
}

export function combine(target: Target['name'], runs: Run[]): Measurement {
  const mean = (pick: (run: Run) => number, digits = 1) =>
    round(runs.reduce((sum, run) => sum + pick(run), 0) / runs.length, digits);
  const sum = (pick: (run: Run) => number) => runs.reduce((total, run) => total + pick(run), 0);
  const statusCodes: Record<string, number> = {};
  for (const run of runs) {
    for (const [code, count] of Object.entries(run.statusCodes))
      statusCodes[code] = (statusCodes[code] ?? 0) + count;
  }
  /** The mean when every run has the value, else undefined. */
  const meanOf = (values: (number | undefined)[], digits = 1) => {
    const known = values.filter((v): v is number => v !== undefined);
    return known.length === runs.length && known.length > 0
      ? round(known.reduce((a, b) => a + b, 0) / known.length, digits)
      : undefined;
  };
  const cpuPerRequestUs = meanOf(runs.map((r) => r.cpuPerRequestUs));
  const databaseCpuPerRequestUs = meanOf(runs.map((r) => r.databaseCpuPerRequestUs));
  const rss = runs.map((r) => r.peakRssMiB).filter((v): v is number => v !== undefined);
  const statementsPerRequest = meanOf(
    runs.map((r) => r.statementsPerRequest),
    3,
  );
  const transactionsPerRequest = meanOf(
    runs.map((r) => r.transactionsPerRequest),
    3,
  );
  return {
    target,
    requestsPerSecond: mean((r) => r.requestsPerSecond),
    ...(cpuPerRequestUs === undefined ? {} : { cpuPerRequestUs }),
    ...(databaseCpuPerRequestUs === undefined ? {} : { databaseCpuPerRequestUs }),
    ...(rss.length > 0 ? { peakRssMiB: Math.max(...rss) } : {}),
    ...(statementsPerRequest === undefined ? {} : { statementsPerRequest }),
    ...(transactionsPerRequest === undefined ? {} : { transactionsPerRequest }),
    completedPerSecond: round(sum((r) => r.completedPerSecond * r.seconds) / sum((r) => r.seconds)),
    latencyP50: mean((r) => r.latencyP50),
    latencyP99: mean((r) => r.latencyP99),
    latencyMean: mean((r) => r.latencyMean, 2),
    total: sum((r) => r.total),
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    statusCodes,
    runs,
  };
}

function assertClean(
  scenario: Scenario,
  target: Target,
  result: Result,
  phase: string,
  { answerRequired = true } = {},
) {
  const problems: string[] = [];
  if (result.non2xx > 0)
    problems.push(`${result.non2xx} non-2xx (${JSON.stringify(result.statusCodeStats)})`);
  if (result.errors > 0) problems.push(`${result.errors} errors`);
  if (result.timeouts > 0) problems.push(`${result.timeouts} timeouts`);
  if (answerRequired && result['2xx'] === 0) problems.push('no successful response');
  if (problems.length > 0) {
    throw new Error(`${scenario.id} against ${target.name} (${phase}) failed: ${problems.join(', ')}`);
  }
}

import autocannon, { type RequestSpec, type Result } from 'autocannon';
import { createRandom, generateRecord } from './data.ts';
import { round } from './time.ts';

export interface Target {
  name: 'service' | 'bare';
  url: string;
}

export interface LoadSettings {
  connections: number;
  /** Seconds measured. */
  duration: number;
  /** Seconds run first and thrown away. */
  warmup: number;
}

export interface ScenarioContext {
  apiKey: string;
  folderId: string;
  /** Seeded record ids the get-one scenario rotates over. */
  recordIds: string[];
}

export interface Scenario {
  id: 'get-one' | 'list' | 'create';
  label: string;
  /** Lowest acceptable service/bare throughput ratio. */
  target: number;
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
}

/** A server's runs of one scenario, summarised: means of the runs, sums of the counts. */
export interface Measurement extends Omit<Run, 'seconds'> {
  target: Target['name'];
  runs: Run[];
}

export const SCENARIOS: Scenario[] = [
  {
    id: 'get-one',
    label: 'GET /records/:id',
    target: 0.6,
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
    requests: () => [{ method: 'GET', path: '/api/v1/records?pageSize=50' }],
  },
  {
    id: 'create',
    label: 'POST /records',
    target: 0.5,
    requests: ({ folderId }, tag) => {
      const random = createRandom(tag.length * 7919 + Date.now());
      let n = 0;
      return [
        {
          method: 'POST',
          setupRequest: (request) => {
            n++;
            const record = generateRecord(random);
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
  if (settings.warmup > 0) {
    const warm = await fire(
      target,
      scenario.requests(context, `${tag}w`),
      context.apiKey,
      settings.connections,
      settings.warmup,
    );
    assertClean(scenario, target, warm, 'warm-up');
  }
  const result = await fire(
    target,
    scenario.requests(context, tag),
    context.apiKey,
    settings.connections,
    settings.duration,
  );
  assertClean(scenario, target, result, 'measured run');
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
  return {
    target,
    requestsPerSecond: mean((r) => r.requestsPerSecond),
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

function assertClean(scenario: Scenario, target: Target, result: Result, phase: string) {
  const problems: string[] = [];
  if (result.non2xx > 0)
    problems.push(`${result.non2xx} non-2xx (${JSON.stringify(result.statusCodeStats)})`);
  if (result.errors > 0) problems.push(`${result.errors} errors`);
  if (result.timeouts > 0) problems.push(`${result.timeouts} timeouts`);
  if (result['2xx'] === 0) problems.push('no successful response');
  if (problems.length > 0) {
    throw new Error(`${scenario.id} against ${target.name} (${phase}) failed: ${problems.join(', ')}`);
  }
}

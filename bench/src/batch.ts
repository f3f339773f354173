import { missing } from '@crm/domain';
import type { RequestSpec } from 'autocannon';
import type pg from 'pg';
import { createRandom, generateRecord, withListFields } from './data.ts';
import { type Measurement, type Run, SCENARIOS, type Scenario } from './scenarios.ts';
import { round } from './time.ts';

/** Items per request of the batch-create scenario: the most a batch takes. */
export const BATCH_SIZE = 100;
/** Records a second the service must create through `POST /records/batch`, events included. */
export const BATCH_TARGET = 3000;

/**
 * `POST /records/batch` with 100 distinct records a request (unique email, generated name,
 * phone and company, as the single create scenario sends), each of which must be created.
 */
export const batchCreate: Scenario = {
  id: 'batch-create',
  label: `POST /records/batch (${BATCH_SIZE} items)`,
  target: 0,
  requests: ({ folderId, lifecycles }, tag) => {
    const random = createRandom(tag.length * 6151 + Date.now());
    let n = 0;
    return [
      {
        method: 'POST',
        setupRequest: (request) => {
          const items = Array.from({ length: BATCH_SIZE }, () => {
            n++;
            const record = withListFields(generateRecord(random), random, lifecycles, true);
            return {
              folderId,
              title: record.title,
              email: `batch.${tag}.${n}@example.com`,
              phone: record.phone,
              data: record.data,
            };
          });
          return { ...request, path: '/api/v1/records/batch', body: JSON.stringify({ items }) };
        },
        onResponse: (status, body) => {
          if (status !== 200) return;
          const { meta } = JSON.parse(body) as { meta: { succeeded: number; failed: number } };
          failedItems += meta.failed;
        },
      } satisfies RequestSpec,
    ];
  },
};

/** Items the service answered with an error during the scenario: any fails the benchmark. */
let failedItems = 0;

/** The single create, measured in the same runs for comparison. */
export const singleCreate =
  SCENARIOS.find((s) => s.id === 'create') ?? missing("SCENARIOS.find((s) => s.id === 'create')");

export interface BatchCreateResult {
  id: 'batch-create';
  label: string;
  batchSize: number;
  /** The order of the measured runs against the service (A B B A). */
  order: ('single' | 'batch')[];
  /** `POST /records`: a request is a record. */
  single: Measurement;
  /** `POST /records/batch`: a request is `batchSize` records. */
  batch: Measurement;
  /** Records created a second (2xx answers × records per request), events included. */
  recordsPerSecond: { single: number; batch: number };
  /** batch ÷ single records a second. */
  speedup: number;
  target: number;
  meetsTarget: boolean;
  checks: Record<string, number>;
  redone?: { target: 'single' | 'batch'; discarded: Run }[];
}

/** Records and record.created events of the workspace so far. */
export async function countCreated(pool: pg.Pool, workspaceId: string) {
  const { rows } = await pool.query<{ records: string; events: string }>(
    `select (select count(*) from records where workspace_id = $1) as records,
            (select count(*) from events where workspace_id = $1 and type = 'record.created') as events`,
    [workspaceId],
  );
  return {
    records: Number((rows[0] ?? missing('rows[0]')).records),
    events: Number((rows[0] ?? missing('rows[0]')).events),
  };
}

/**
 * Every record created must have its event, every batch item must have succeeded, and the
 * records must be at least as many as the 2xx answers say (requests still in flight when a
 * run stops may add more).
 */
export function batchChecks(
  before: { records: number; events: number },
  after: { records: number; events: number },
  runs: { single: Run[]; batch: Run[] },
): Record<string, number> {
  const answered = (list: Run[]) => list.reduce((sum, r) => sum + r.total - r.non2xx + r.warmupCompleted, 0);
  const checks = {
    recordsAnswered: answered(runs.single) + answered(runs.batch) * BATCH_SIZE,
    recordsCreated: after.records - before.records,
    createdEvents: after.events - before.events,
    failedItems,
  };
  if (
    checks.failedItems > 0 ||
    checks.createdEvents !== checks.recordsCreated ||
    checks.recordsCreated < checks.recordsAnswered
  ) {
    throw new Error(`batch-create did not create every record with its event: ${JSON.stringify(checks)}`);
  }
  return checks;
}

export function batchResult(
  measured: { single: Measurement; batch: Measurement },
  order: ('single' | 'batch')[],
  checks: Record<string, number>,
  redone: BatchCreateResult['redone'],
): BatchCreateResult {
  const recordsPerSecond = {
    single: measured.single.completedPerSecond,
    batch: round(measured.batch.completedPerSecond * BATCH_SIZE),
  };
  return {
    id: 'batch-create',
    label: batchCreate.label,
    batchSize: BATCH_SIZE,
    order,
    single: measured.single,
    batch: measured.batch,
    recordsPerSecond,
    speedup: round(recordsPerSecond.batch / recordsPerSecond.single, 2),
    target: BATCH_TARGET,
    meetsTarget: recordsPerSecond.batch >= BATCH_TARGET,
    checks,
    ...(redone && redone.length > 0 ? { redone } : {}),
  };
}

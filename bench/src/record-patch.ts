import { missing } from '@crm/domain';
import type pg from 'pg';
import { createRandom, generateRecord } from './data.ts';
import type { Measurement, Run, Scenario } from './scenarios.ts';

/**
 * `PATCH /records/:id` with a new title and a new `data.score`, rotating over the seeded
 * records, so every request changes two fields and writes a `record.updated` event. Against
 * the service only (the bare server has no PATCH of records): the write path's cost is
 * compared run against run, before and after a change to it.
 */
export const recordPatch: Scenario = {
  id: 'record-patch',
  label: 'PATCH /records/:id (title, data.score)',
  target: 0,
  requests: ({ recordIds }, tag) => {
    const random = createRandom(tag.length * 3571 + Date.now());
    let next = Math.floor(random() * recordIds.length);
    let n = 0;
    return [
      {
        method: 'PATCH',
        setupRequest: (request) => {
          next = (next + 1) % recordIds.length;
          n++;
          const body = { title: `${generateRecord(random).title} ${tag}.${n}`, data: { score: n % 101 } };
          return { ...request, path: `/api/v1/records/${recordIds[next]}`, body: JSON.stringify(body) };
        },
      },
    ];
  },
};

export interface RecordPatchResult {
  id: 'record-patch';
  label: string;
  service: Measurement;
  /** `record.updated` events the runs wrote, and the 2xx answers (warm-ups included). */
  checks: { answered2xx: number; updatedEvents: number };
  /** What the field history takes on disk after the runs: its rows, and bytes a row (table, index and TOAST). */
  historyStorage?: { rows: number; bytesPerRow: number };
  redone?: { target: 'service'; discarded: Run }[];
}

/** `record.updated` events of the workspace so far. */
export async function countUpdated(pool: pg.Pool, workspaceId: string): Promise<number> {
  const { rows } = await pool.query<{ n: string }>(
    `select count(*) as n from events where workspace_id = $1 and type = 'record.updated'`,
    [workspaceId],
  );
  return Number((rows[0] ?? missing('rows[0]')).n);
}

export function recordPatchChecks(before: number, after: number, runs: Run[]) {
  const answered2xx = runs.reduce((sum, run) => sum + run.total - run.non2xx + run.warmupCompleted, 0);
  const checks = { answered2xx, updatedEvents: after - before };
  if (checks.updatedEvents < answered2xx) {
    throw new Error(`record-patch: fewer record.updated events than answers: ${JSON.stringify(checks)}`);
  }
  return checks;
}

/**
 * The field history's size (docs/api.md, "History and provenance"): its rows and what one takes
 * on disk, table, index and TOAST together, after a VACUUM so that dead space is not counted.
 */
export async function historyStorage(pool: pg.Pool): Promise<{ rows: number; bytesPerRow: number }> {
  await pool.query('vacuum history');
  const { rows } = await pool.query<{ rows: string; bytes: string }>(
    `select count(*) as rows, pg_total_relation_size('history') as bytes from history`,
  );
  const count = Number((rows[0] ?? missing('rows[0]')).rows);
  return {
    rows: count,
    bytesPerRow: count === 0 ? 0 : Math.round(Number((rows[0] ?? missing('rows[0]')).bytes) / count),
  };
}

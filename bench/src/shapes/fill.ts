import { missing } from '@crm/domain';
import type pg from 'pg';
import { createRandom } from '../data.ts';
import type { ShapeWorkspace } from './seed.ts';
import { shapeRecord } from './seed.ts';

/** Items per request: the most a batch takes. */
const BATCH = 100;
/** Requests in flight at once. */
const IN_FLIGHT = 4;

async function send(url: string, apiKey: string, method: 'POST' | 'PATCH', path: string, body: unknown) {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  const { meta } = JSON.parse(text) as { meta: { failed: number } };
  if (meta.failed > 0)
    throw new Error(`${method} ${path}: ${meta.failed} items failed: ${text.slice(0, 500)}`);
}

/** Runs `count` requests, `IN_FLIGHT` at a time; `request(i)` sends the i-th. */
async function inFlight(
  count: number,
  request: (i: number) => Promise<void>,
  onDone: (done: number) => void,
) {
  let next = 0;
  let done = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      for (let i = next++; i < count; i = next++) {
        await request(i);
        onDone(++done);
      }
    }),
  );
}

/**
 * Fills an `api` workspace through `POST /records/batch`, as an import would: the first 60 %
 * of the records from a source of personal emails, the rest with work emails only.
 */
export async function fillThroughApi(
  url: string,
  workspace: ShapeWorkspace,
  onProgress: (done: number, total: number) => void,
): Promise<void> {
  const random = createRandom(43);
  const folder = workspace.folders[0] ?? missing('the folder');
  const requests = Math.ceil(workspace.records / BATCH);
  const companies = new Set<string>();
  const workFrom = Math.floor(workspace.records * 0.6);
  await inFlight(
    requests,
    (i) => {
      const items = Array.from({ length: Math.min(BATCH, workspace.records - i * BATCH) }, (_, j) => {
        const record = shapeRecord(random, folder, companies, Date.now(), i * BATCH + j >= workFrom);
        return {
          folderId: folder.id,
          title: record.title,
          email: record.email,
          phone: record.phone,
          data: record.data,
        };
      });
      return send(url, workspace.apiKey, 'POST', '/api/v1/records/batch', { items });
    },
    (done) => onProgress(Math.min(done * BATCH, workspace.records), workspace.records),
  );
}

/**
 * Changes `share` of a workspace's records through `PATCH /records/batch`, as people and
 * automations do after an import: a new lifecycle or score for most, a new company (so a new
 * search text) for a third.
 */
export async function patchThroughApi(
  url: string,
  pool: pg.Pool,
  workspace: ShapeWorkspace,
  share: number,
  onProgress: (done: number, total: number) => void,
): Promise<void> {
  const random = createRandom(47);
  const rows = await pool.query<{ id: string; folder_id: string }>(
    'select id, folder_id from records where workspace_id = $1 and random() < $2',
    [workspace.workspaceId, share],
  );
  const byId = new Map(workspace.folders.map((f) => [f.id, f]));
  const requests = Math.ceil(rows.rows.length / BATCH);
  await inFlight(
    requests,
    (i) => {
      const items = rows.rows.slice(i * BATCH, (i + 1) * BATCH).map((row) => {
        const folder = byId.get(row.folder_id) ?? missing('the folder');
        const keys = new Set(folder.fields.map((f) => f.key));
        const data: Record<string, unknown> = {};
        if (keys.has('lifecycle')) {
          const options = folder.fields.find((f) => f.key === 'lifecycle')?.options ?? [];
          data.lifecycle = options[Math.floor(random() * options.length)];
        }
        if (keys.has('score')) data.score = Math.floor(random() * 101);
        if (keys.has('industry') && random() < 0.5) data.industry = 'Software';
        if (keys.has('company') && random() < 1 / 3)
          data.company = `Renamed ${Math.floor(random() * 5000)} Group`;
        return { id: row.id, data };
      });
      return send(url, workspace.apiKey, 'PATCH', '/api/v1/records/batch', { items });
    },
    (done) => onProgress(Math.min(done * BATCH, rows.rows.length), rows.rows.length),
  );
}

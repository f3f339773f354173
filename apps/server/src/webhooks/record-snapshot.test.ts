import { randomBytes } from 'node:crypto';
import { schema } from '@crm/db';
import { newId } from '@crm/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, Receiver } from '../testing/receiver.ts';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';

// The `record` of every event payload is the record exactly as GET /api/v1/records/{id}
// answers it ("Payload" in docs/webhooks.md). Each test takes the API's answer right after a
// write and compares it with what the event of that write carries.

type Json = Record<string, unknown>;

let app: TestApp;
let ws: TestWorkspace;
let receiver: Receiver;

beforeAll(async () => {
  app = await startTestApp({
    worker: true,
    env: { WORKER_POLL_INTERVAL_MS: '50', WEBHOOK_RETRY_SCALE: '0.001', WORKFLOW_RETRY_SCALE: '0.001' },
  });
  ws = await app.createWorkspace({ rateLimitPerMinute: 10_000 });
  receiver = await new Receiver().start();
  await app.service.db.insert(schema.webhooks).values({
    workspaceId: ws.workspaceId,
    id: newId('webhook'),
    url: `${receiver.url}/hook`,
    events: ['*'],
    secret: `whsec_${randomBytes(24).toString('base64')}`,
  });
});
afterAll(async () => {
  await receiver?.stop();
  await app?.stop();
});

const api = (method: string, path: string, body?: unknown) =>
  app.api(ws.apiKey, method, `/api/v1${path}`, body);

async function getRecord(id: string): Promise<Json> {
  const res = await api('GET', `/records/${id}`);
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}

/** The payload delivered to the receiver for the `kind` event of a record (there must be exactly one). */
async function delivered(kind: string, recordId: string): Promise<Json> {
  const matching = () =>
    receiver.requests
      .map((q) => JSON.parse(q.body.toString('utf8')) as Json)
      .filter((p) => p.event === kind && p.recordId === recordId);
  const [payload] = await eventually(async () => {
    const found = matching();
    return found.length > 0 ? found : undefined;
  }, 20_000);
  expect(matching()).toHaveLength(1);
  return payload!;
}

/** The stored payloads of a record's events, oldest first. */
async function stored(recordId: string, kind?: string): Promise<Json[]> {
  const result = await app.service.db.execute<{ payload: Json }>(sql`
    select payload from events
     where workspace_id = ${ws.workspaceId} and payload->>'recordId' = ${recordId}
       and (${kind ?? null}::text is null or type = ${kind ?? null})
     order by occurred_at, id`);
  return result.rows.map((row) => row.payload);
}

async function storedOne(recordId: string, kind: string): Promise<Json> {
  const payloads = await stored(recordId, kind);
  expect(payloads).toHaveLength(1);
  return payloads[0]!;
}

describe('the record snapshot of record events', () => {
  it('record.created, record.updated, record.trashed and record.restored deliver the record as the API shows it right after', async () => {
    const created = await api('POST', '/records', {
      folderId: ws.folderId,
      title: 'Ada',
      email: 'ada@snapshot.test',
      phone: '+44 20 7946 0000',
      ownerId: ws.userId,
      data: { company: 'Engines' },
    });
    expect(created.status, created.text).toBe(201);
    const id: string = created.body.data.id;
    const afterCreate = await getRecord(id);
    expect(afterCreate).toEqual(created.body.data);
    expect(Object.keys(afterCreate).sort()).toEqual(
      [
        'createdAt',
        'data',
        'email',
        'folderId',
        'id',
        'ownerId',
        'phone',
        'title',
        'trashedAt',
        'updatedAt',
      ].sort(),
    );

    const updated = await api('PATCH', `/records/${id}`, { title: 'Ada L.', data: { company: null } });
    expect(updated.status, updated.text).toBe(200);
    const afterUpdate = await getRecord(id);

    const trashed = await api('DELETE', `/records/${id}`);
    expect(trashed.status, trashed.text).toBe(200);
    expect((await api('GET', `/records/${id}`)).status).toBe(404);
    const trash = await api('GET', `/records?trashed=true&folderId=${ws.folderId}&pageSize=100`);
    const inTrash = (trash.body.data as Json[]).find((r) => r.id === id);
    expect(inTrash).toEqual(trashed.body.data);
    expect(inTrash!.trashedAt).toEqual(expect.any(String));

    const restored = await api('POST', `/records/${id}/restore`);
    expect(restored.status, restored.text).toBe(200);
    const afterRestore = await getRecord(id);
    expect(afterRestore.trashedAt).toBeNull();

    expect((await delivered('record.created', id)).record).toEqual(afterCreate);
    expect((await delivered('record.updated', id)).record).toEqual(afterUpdate);
    expect((await delivered('record.trashed', id)).record).toEqual(inTrash);
    expect((await delivered('record.restored', id)).record).toEqual(afterRestore);
    // The stored events (the event feed) carry the same.
    expect((await stored(id)).map((p) => p.record)).toEqual([
      afterCreate,
      afterUpdate,
      inTrash,
      afterRestore,
    ]);
  });

  it('an upsert by email that updates delivers record.updated with the record as GET shows it', async () => {
    const body = { folderId: ws.folderId, title: 'Grace', email: 'grace@snapshot.test' };
    const first = await app.api(ws.apiKey, 'POST', '/api/v1/records?upsert=email', body);
    expect(first.status, first.text).toBe(201);
    const again = await app.api(ws.apiKey, 'POST', '/api/v1/records?upsert=email', {
      ...body,
      title: 'Grace H.',
    });
    expect(again.status, again.text).toBe(200);
    const id: string = first.body.data.id;
    const afterUpsert = await getRecord(id);
    expect((await delivered('record.updated', id)).record).toEqual(afterUpsert);
  });

  it('batch create (new emails together, a known email upserted), update and trash write the record as the API shows it right after', async () => {
    const existing = await api('POST', '/records', {
      folderId: ws.folderId,
      title: 'Existing',
      email: 'existing@batch-snapshot.test',
    });
    const made = await api('POST', '/records/batch?upsert=email', {
      items: [
        {
          folderId: ws.folderId,
          title: 'Batch A',
          email: 'a@batch-snapshot.test',
          ownerId: ws.userId,
          data: { company: 'A' },
        },
        { folderId: ws.folderId, title: 'Batch B', email: 'b@batch-snapshot.test' },
        { folderId: ws.folderId, title: 'Existing, renamed', email: 'existing@batch-snapshot.test' },
      ],
    });
    expect(made.status, made.text).toBe(200);
    const ids: string[] = made.body.data.map((item: { data: { id: string } }) => item.data.id);
    expect(ids[2]).toBe(existing.body.data.id);
    const afterCreate = await Promise.all(ids.map(getRecord));
    expect((await storedOne(ids[0]!, 'record.created')).record).toEqual(afterCreate[0]);
    expect((await storedOne(ids[1]!, 'record.created')).record).toEqual(afterCreate[1]);
    expect((await storedOne(ids[2]!, 'record.updated')).record).toEqual(afterCreate[2]);

    const changed = await api('PATCH', '/records/batch', {
      items: [
        { id: ids[0], title: 'Batch A2', data: { company: 'A2' } },
        { id: ids[1], ownerId: ws.userId },
      ],
    });
    expect(changed.status, changed.text).toBe(200);
    const afterUpdate = await Promise.all(ids.slice(0, 2).map(getRecord));
    for (const [i, id] of ids.slice(0, 2).entries()) {
      expect((await storedOne(id, 'record.updated')).record).toEqual(afterUpdate[i]);
    }

    const trashed = await api('POST', '/records/batch/trash', { ids: ids.slice(0, 2) });
    expect(trashed.status, trashed.text).toBe(200);
    const trash = await api('GET', `/records?trashed=true&folderId=${ws.folderId}&pageSize=100`);
    for (const [i, id] of ids.slice(0, 2).entries()) {
      const inTrash = (trash.body.data as Json[]).find((r) => r.id === id);
      expect(inTrash).toEqual(trashed.body.data[i].data);
      expect((await storedOne(id, 'record.trashed')).record).toEqual(inTrash);
    }
  });

  it('a change made by a workflow writes the record as the API shows it', async () => {
    const saved = await api('POST', '/workflows', {
      name: 'Snapshot flow',
      trigger: { type: 'INCOMING_WEBHOOK' },
      actions: [
        { type: 'CREATE_RECORD', folderId: ws.folderId, title: '{{ trigger.body.name }}' },
        { type: 'ASSIGN_OWNER', ownerId: ws.userId },
      ],
    });
    expect(saved.status, saved.text).toBe(201);
    const accepted = await fetch(saved.body.data.trigger.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Katherine' }),
    });
    expect(accepted.status).toBe(200);
    const { runId } = (await accepted.json()) as { runId: string };
    const run = await eventually(async () => {
      const res = await api('GET', `/runs/${runId}`);
      const status = res.body.data?.status;
      return status === 'SUCCEEDED' || status === 'FAILED' ? res.body.data : undefined;
    }, 20_000);
    expect(run.status, run.error).toBe('SUCCEEDED');
    const { created: _created, ...createdRecord } = run.steps[0].output;
    const id: string = createdRecord.id;
    const afterRun = await getRecord(id);
    expect(afterRun.ownerId).toBe(ws.userId);
    expect((await storedOne(id, 'record.created')).record).toEqual(createdRecord);
    expect((await storedOne(id, 'record.updated')).record).toEqual(afterRun);
    expect((await delivered('record.updated', id)).record).toEqual(afterRun);
  });
});

describe('the record snapshot of deal and task events', () => {
  it('is the linked record as GET shows it', async () => {
    const record = await api('POST', '/records', {
      folderId: ws.folderId,
      title: 'Linked',
      ownerId: ws.userId,
      data: { company: 'Links' },
    });
    const id: string = record.body.data.id;
    const pipeline = (await api('GET', '/pipelines')).body.data[0];
    const deal = await api('POST', '/deals', { pipelineId: pipeline.id, title: 'Linked deal', recordId: id });
    expect(deal.status, deal.text).toBe(201);
    const task = await api('POST', '/tasks', { title: 'Linked task', recordId: id });
    expect(task.status, task.text).toBe(201);
    const current = await getRecord(id);
    expect((await storedOne(id, 'deal.created')).record).toEqual(current);
    expect((await storedOne(id, 'task.created')).record).toEqual(current);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeal } from '../deals/create-deal.ts';
import { updateDeal } from '../deals/update-deal.ts';
import { findPipelines } from '../pipelines/find-pipelines.ts';
import { createRecord } from '../records/create-record.ts';
import { updateRecord } from '../records/update-record.ts';
import type { Actor } from '../shared/actor.ts';
import { appendEvent } from '../shared/events.ts';
import { fanOutStoredEvents } from '../shared/fan-out.ts';
import { isId } from '../shared/ids.ts';
import { newWorkspace, openTestDb, type TestDb } from '../testing/fixtures.ts';
import { createWebhook } from './create-webhook.ts';
import { updateWebhook } from './update-webhook.ts';

let t: TestDb;
beforeAll(async () => {
  t = await openTestDb();
});
afterAll(() => t?.close());

const services = { checkOutboundUrl: async () => {} };
const subscribe = (actor: Actor, input: { events: string[]; fields?: string[] }) =>
  createWebhook(t.db, actor, { url: 'https://hooks.example.com/x', ...input }, services);

/** Fans out every event of the workspace again, as a job of an earlier version would; returns deliveries made. */
async function fanOutAgain(workspaceId: string) {
  const events = await t.query<{ id: string }>('select id from events where workspace_id = $1', [
    workspaceId,
  ]);
  return fanOutStoredEvents(
    t.db,
    events.map((event) => event.id),
  );
}

const deliveredTypes = (webhookId: string) =>
  t.query<{ type: string; changed: string[] | null }>(
    `select e.type, array(select jsonb_array_elements_text(e.payload->'changedFields')) as changed
     from deliveries d join events e on e.id = d.event_id where d.webhook_id = $1 order by e.occurred_at`,
    [webhookId],
  );

describe('fan-out to subscriptions', () => {
  it('gives a deal.stage_changed subscription exactly one delivery per stage move, once', async () => {
    const { actor } = await newWorkspace(t.db);
    const stageHook = await subscribe(actor, { events: ['deal.stage_changed'] });
    const taskHook = await subscribe(actor, { events: ['task.created'] });
    const pipeline = (await findPipelines(t.db, actor, {})).data[0]!;
    const deal = await createDeal(t.db, actor, { pipelineId: pipeline.id, title: 'Big' });
    await updateDeal(t.db, actor, { id: deal.id, stageId: pipeline.stages[2]!.id });
    expect(await deliveredTypes(stageHook.id)).toEqual([{ type: 'deal.stage_changed', changed: [] }]);
    expect(await deliveredTypes(taskHook.id)).toEqual([]);
    expect(await fanOutAgain(actor.workspaceId)).toBe(0);
    expect(await deliveredTypes(stageHook.id)).toHaveLength(1);
  });

  it('gives a record.updated subscription narrowed to title a title change but not a phone change', async () => {
    const ws = await newWorkspace(t.db);
    const titleHook = await subscribe(ws.actor, { events: ['record.updated'], fields: ['title'] });
    const everything = await subscribe(ws.actor, { events: ['*'] });
    const { record } = await createRecord(t.db, ws.actor, { folderId: ws.peopleFolderId, title: 'Ada' });
    await updateRecord(t.db, ws.actor, { id: record.id, title: 'Ada L.' });
    await updateRecord(t.db, ws.actor, { id: record.id, phone: '+44 20 7946 0000' });
    expect(await deliveredTypes(titleHook.id)).toEqual([{ type: 'record.updated', changed: ['title'] }]);
    expect((await deliveredTypes(everything.id)).map((d) => d.type)).toEqual([
      'record.created',
      'record.updated',
      'record.updated',
    ]);
  });

  it('gives a disabled subscription nothing', async () => {
    const ws = await newWorkspace(t.db);
    const hook = await subscribe(ws.actor, { events: ['*'] });
    await updateWebhook(t.db, ws.actor, { id: hook.id, enabled: false }, services);
    await createRecord(t.db, ws.actor, { folderId: ws.peopleFolderId, title: 'Ada' });
    expect(await deliveredTypes(hook.id)).toEqual([]);
  });

  it('creates pending deliveries, due now, with the event, and nothing when the change rolls back', async () => {
    const ws = await newWorkspace(t.db);
    const hook = await subscribe(ws.actor, { events: ['record.created'] });
    const before = Date.now();
    const { record } = await createRecord(t.db, ws.actor, { folderId: ws.peopleFolderId, title: 'Ada' });
    const [delivery] = await t.query<{ id: string; status: string; due: boolean; attempt_count: number }>(
      `select d.id, d.status, d.next_attempt_at <= now() as due, d.attempt_count
       from deliveries d join events e on e.id = d.event_id
       where d.webhook_id = $1 and e.payload->>'recordId' = $2`,
      [hook.id, record.id],
    );
    expect(delivery).toMatchObject({ status: 'PENDING', due: true, attempt_count: 0 });
    expect(isId('delivery', delivery!.id)).toBe(true);
    // A UUIDv7: its first 48 bits are the creation time in milliseconds.
    const millis = Number(BigInt(`0x${idBits(delivery!.id).slice(0, 12)}`));
    expect(millis).toBeGreaterThanOrEqual(before - 1_000);
    expect(millis).toBeLessThanOrEqual(Date.now() + 1_000);

    await expect(
      t.db.transaction(async (tx) => {
        await appendEvent(tx, ws.actor, 'record.created', { recordId: 'rec_gone' });
        throw new Error('the change fails');
      }),
    ).rejects.toThrow('the change fails');
    expect(await deliveredTypes(hook.id)).toHaveLength(1);
  });

  it('makes delivery ids in SQL of the same shape and order as the domain', async () => {
    const rows = await t.query<{ id: string }>(
      "select new_typeid('dlv') as id from generate_series(1, 200) order by 1",
    );
    expect(rows.every((row) => isId('delivery', row.id))).toBe(true);
    expect(new Set(rows.map((row) => row.id)).size).toBe(200);
    const bits = rows.map((row) => idBits(row.id));
    expect(bits.every((hex) => hex[12] === '7' && '89ab'.includes(hex[16]!))).toBe(true);
  });
});

/** The 128 bits of an id's suffix, as 32 hex digits. */
function idBits(id: string): string {
  const alphabet = '0123456789abcdefghjkmnpqrstvwxyz';
  let value = 0n;
  for (const char of id.slice(id.indexOf('_') + 1)) value = (value << 5n) | BigInt(alphabet.indexOf(char));
  return value.toString(16).padStart(32, '0');
}

describe('fan-out of stored events (old fan_out_event jobs)', () => {
  it('creates the missing deliveries of a stored event once', async () => {
    const ws = await newWorkspace(t.db);
    await createRecord(t.db, ws.actor, { folderId: ws.peopleFolderId, title: 'Ada' });
    // Subscribed after the event: as if the event had been written by a version that left fan-out to a job.
    const hook = await subscribe(ws.actor, { events: ['record.created'] });
    expect(await fanOutAgain(ws.actor.workspaceId)).toBe(1);
    expect(await fanOutAgain(ws.actor.workspaceId)).toBe(0);
    expect(await deliveredTypes(hook.id)).toEqual([{ type: 'record.created', changed: [] }]);
  });

  it('fans out the events of several workspaces named by id alone, passing over ids of no event', async () => {
    const first = await newWorkspace(t.db, 'First');
    const second = await newWorkspace(t.db, 'Second');
    await createRecord(t.db, first.actor, { folderId: first.peopleFolderId, title: 'Ada' });
    await createRecord(t.db, second.actor, { folderId: second.peopleFolderId, title: 'Grace' });
    await createRecord(t.db, second.actor, { folderId: second.peopleFolderId, title: 'Edsger' });
    const firstHook = await subscribe(first.actor, { events: ['*'] });
    const secondHook = await subscribe(second.actor, { events: ['record.created'] });
    const events = await t.query<{ id: string }>(
      'select id from events where workspace_id = any($1::text[])',
      [[first.actor.workspaceId, second.actor.workspaceId]],
    );
    expect(events).toHaveLength(3);
    const ids = [...events.map((event) => event.id), 'evt_pruned_long_ago'];
    expect(await fanOutStoredEvents(t.db, ids)).toBe(3);
    expect(await fanOutStoredEvents(t.db, ids)).toBe(0);
    expect(await deliveredTypes(firstHook.id)).toEqual([{ type: 'record.created', changed: [] }]);
    expect(await deliveredTypes(secondHook.id)).toHaveLength(2);
    expect(await fanOutStoredEvents(t.db, [])).toBe(0);
  });
});

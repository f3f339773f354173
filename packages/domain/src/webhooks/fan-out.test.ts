import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeal } from '../deals/create-deal.ts';
import { updateDeal } from '../deals/update-deal.ts';
import { findPipelines } from '../pipelines/find-pipelines.ts';
import { createRecord } from '../records/create-record.ts';
import { updateRecord } from '../records/update-record.ts';
import type { Actor } from '../shared/actor.ts';
import { newWorkspace, openTestDb, type TestDb } from '../testing/fixtures.ts';
import { createWebhook } from './create-webhook.ts';
import { fanOutEvent } from './queue-delivery.ts';
import { updateWebhook } from './update-webhook.ts';

let t: TestDb;
beforeAll(async () => {
  t = await openTestDb();
});
afterAll(() => t?.close());

const anyUrl = async () => {};
const subscribe = (actor: Actor, input: { events: string[]; fields?: string[] }) =>
  createWebhook(t.db, actor, { url: 'https://hooks.example.com/x', ...input }, anyUrl);

/** Runs the fan-out job for every event of the workspace, as the worker would; returns deliveries made. */
async function fanOutAll(workspaceId: string) {
  const events = await t.query<{ id: string }>('select id from events where workspace_id = $1', [
    workspaceId,
  ]);
  let created = 0;
  for (const event of events) created += await fanOutEvent(t.db, event.id);
  return created;
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
    await fanOutAll(actor.workspaceId);
    expect(await deliveredTypes(stageHook.id)).toEqual([{ type: 'deal.stage_changed', changed: [] }]);
    expect(await deliveredTypes(taskHook.id)).toEqual([]);
    expect(await fanOutAll(actor.workspaceId)).toBe(0);
  });

  it('gives a record.updated subscription narrowed to title a title change but not a phone change', async () => {
    const ws = await newWorkspace(t.db);
    const titleHook = await subscribe(ws.actor, { events: ['record.updated'], fields: ['title'] });
    const everything = await subscribe(ws.actor, { events: ['*'] });
    const { record } = await createRecord(t.db, ws.actor, { folderId: ws.peopleFolderId, title: 'Ada' });
    await updateRecord(t.db, ws.actor, { id: record.id, title: 'Ada L.' });
    await updateRecord(t.db, ws.actor, { id: record.id, phone: '+44 20 7946 0000' });
    await fanOutAll(ws.actor.workspaceId);
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
    await updateWebhook(t.db, ws.actor, { id: hook.id, enabled: false }, anyUrl);
    await createRecord(t.db, ws.actor, { folderId: ws.peopleFolderId, title: 'Ada' });
    await fanOutAll(ws.actor.workspaceId);
    expect(await deliveredTypes(hook.id)).toEqual([]);
  });
});

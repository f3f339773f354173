import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecord } from '../records/create-record.ts';
import { newWorkspace, openTestDb, type TestDb } from '../testing/fixtures.ts';
import { pruneWebhookHistory } from './prune-history.ts';

let t: TestDb;
beforeAll(async () => {
  t = await openTestDb();
});
afterAll(() => t?.close());

describe('pruneWebhookHistory', () => {
  it('removes events and deliveries older than 30 days and keeps the rest', async () => {
    const ws = await newWorkspace(t.db);
    const workspaceId = ws.actor.workspaceId;
    await createRecord(t.db, ws.actor, { folderId: ws.peopleFolderId, title: 'Old' });
    await createRecord(t.db, ws.actor, { folderId: ws.peopleFolderId, title: 'New' });
    await t.query(
      `insert into webhooks (workspace_id, id, url, events, secret) values ($1, 'wh_test', 'http://127.0.0.1/', '{*}', 'whsec_x')`,
      [workspaceId],
    );
    const events = await t.query<{ id: string; title: string }>(
      `select id, payload->'record'->>'title' as title from events where workspace_id = $1`,
      [workspaceId],
    );
    for (const event of events) {
      await t.query(
        `insert into deliveries (workspace_id, id, webhook_id, event_id, created_at) values ($1, $2, 'wh_test', $3, now())`,
        [workspaceId, `dlv_${event.title}`, event.id],
      );
    }
    const old = events.find((e) => e.title === 'Old')!;
    await t.query(`update events set occurred_at = now() - interval '31 days' where id = $1`, [old.id]);
    await t.query(`update deliveries set created_at = now() - interval '31 days' where event_id = $1`, [
      old.id,
    ]);
    await pruneWebhookHistory(t.db);
    const left = await t.query<{ id: string }>('select id from events where workspace_id = $1', [
      workspaceId,
    ]);
    expect(left.map((e) => e.id)).toEqual(events.filter((e) => e.title === 'New').map((e) => e.id));
    const deliveries = await t.query<{ id: string }>('select id from deliveries where workspace_id = $1', [
      workspaceId,
    ]);
    expect(deliveries.map((d) => d.id)).toEqual(['dlv_New']);
  });
});

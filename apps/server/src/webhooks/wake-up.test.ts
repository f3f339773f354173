import { randomBytes } from 'node:crypto';
import { schema } from '@crm/db';
import { newId } from '@crm/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Receiver } from '../testing/receiver.ts';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';

let app: TestApp;
let ws: TestWorkspace;
let receiver: Receiver;

beforeAll(async () => {
  // The worker looks for due deliveries only once a minute on its own: whatever arrives
  // sooner came through the notification of the committing transaction.
  app = await startTestApp({ worker: true, env: { WORKER_POLL_INTERVAL_MS: '60000' } });
  ws = await app.createWorkspace();
  receiver = await new Receiver().start();
});
afterAll(async () => {
  await receiver?.stop();
  await app?.stop();
});

describe('waking the delivery workers', () => {
  it('sends a new event, a test event and a redelivery at once, without waiting for the poll', async () => {
    const id = newId('webhook');
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    await app.service.db
      .insert(schema.webhooks)
      .values({ workspaceId: ws.workspaceId, id, url: receiver.url, events: ['record.created'], secret });
    // Let the worker's first look (at start) pass, so only a notification can wake it.
    await new Promise((resolve) => setTimeout(resolve, 300));

    const started = Date.now();
    const created = await app.api(ws.apiKey, 'POST', '/api/v1/records', {
      folderId: ws.folderId,
      title: 'Now',
    });
    expect(created.status).toBe(201);
    const [first] = await receiver.waitFor(1, 5_000);
    expect(JSON.parse(first!.body.toString()).recordId).toBe(created.body.data.id);

    const tested = await app.api(ws.apiKey, 'POST', `/api/v1/webhooks/${id}/test`);
    expect(tested.status).toBe(200);
    const [, second] = await receiver.waitFor(2, 5_000);
    expect(second!.headers['x-service-delivery']).toBe(tested.body.data.id);

    const again = await app.api(ws.apiKey, 'POST', `/api/v1/deliveries/${tested.body.data.id}/redeliver`);
    expect(again.status).toBe(201);
    const [, , third] = await receiver.waitFor(3, 5_000);
    expect(third!.headers['x-service-delivery']).toBe(again.body.data.id);
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});

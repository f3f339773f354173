import { randomBytes } from 'node:crypto';
import { schema } from '@crm/db';
import { newId, sealSecret } from '@crm/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, Receiver } from '../testing/receiver.ts';
import { startTestApp, type TestApp } from '../testing/test-app.ts';

/**
 * Deliveries of every workspace are claimed and sent together: one subscription whose
 * delivery cannot even be prepared must not hold up another's.
 */
let app: TestApp;
let receiver: Receiver;

beforeAll(async () => {
  app = await startTestApp({
    worker: true,
    env: { WEBHOOK_RETRY_SCALE: '0.001', WORKER_POLL_INTERVAL_MS: '50' },
  });
  receiver = await new Receiver().start();
});
afterAll(async () => {
  await receiver?.stop();
  await app?.stop();
});

describe('a claim holding a delivery that cannot be prepared', () => {
  it('sends the other workspaces’ deliveries and records the bad one as a failed attempt', async () => {
    const broken = await app.createWorkspace({ rateLimitPerMinute: 10_000 });
    const healthy = await app.createWorkspace({ rateLimitPerMinute: 10_000 });
    const brokenId = newId('webhook');
    // Sealed under a key this process does not have: it can be read from the database, not opened.
    const unreadable = `enc:v1:retiredkey:${randomBytes(12).toString('base64url')}:${randomBytes(40).toString('base64url')}`;
    await app.service.db.insert(schema.webhooks).values({
      workspaceId: broken.workspaceId,
      id: brokenId,
      url: receiver.url,
      events: ['record.created'],
      secret: unreadable,
    });
    const healthyId = newId('webhook');
    await app.service.db.insert(schema.webhooks).values({
      workspaceId: healthy.workspaceId,
      id: healthyId,
      url: receiver.url,
      events: ['record.created'],
      secret: sealSecret('whsec_healthy'),
    });
    await Promise.all([
      app.api(broken.apiKey, 'POST', '/api/v1/records', { folderId: broken.folderId, title: 'Broken' }),
      app.api(healthy.apiKey, 'POST', '/api/v1/records', { folderId: healthy.folderId, title: 'Healthy' }),
    ]);
    const [request] = await receiver.waitFor(1);
    expect(request!.headers['x-service-event']).toBe('record.created');
    const failed = await eventually(async () => {
      const result = await app.service.db.execute<{ error: string | null }>(
        sql`select a.error from delivery_attempts a join deliveries d on d.workspace_id = a.workspace_id and d.id = a.delivery_id
             where d.webhook_id = ${brokenId}`,
      );
      return result.rows[0];
    });
    expect(failed.error).toBe('The delivery could not be prepared');
    const sent = await eventually(async () => {
      const result = await app.service.db.execute<{ status: string }>(
        sql`select status from deliveries where webhook_id = ${healthyId}`,
      );
      return result.rows[0]?.status === 'SUCCEEDED' ? result.rows[0] : undefined;
    });
    expect(sent.status).toBe('SUCCEEDED');
    expect(receiver.requests).toHaveLength(1);
  });
});

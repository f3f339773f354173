import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { schema } from '@crm/db';
import { newId } from '@crm/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budget } from '../testing/budget.ts';
import { eventually, Receiver } from '../testing/receiver.ts';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';
import { startWorkerProcess } from '../testing/worker-process.ts';

let app: TestApp;
let ws: TestWorkspace;
let receiver: Receiver;
let child: ChildProcess | undefined;

beforeAll(async () => {
  // This process serves the API only; workers are started below, one of them to be killed.
  app = await startTestApp();
  ws = await app.createWorkspace();
  receiver = await new Receiver().start();
});
afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
  await receiver?.stop();
  await app?.stop();
});

describe('a worker killed mid-delivery', () => {
  it(
    "does not strand the delivery: another worker sends it once the dead one's claim runs out",
    async () => {
      const id = newId('webhook');
      const secret = `whsec_${randomBytes(24).toString('base64')}`;
      await app.service.db
        .insert(schema.webhooks)
        .values({ workspaceId: ws.workspaceId, id, url: receiver.url, events: ['record.created'], secret });
      // The first attempt hangs, so the worker process is in the middle of it when killed.
      receiver.reply('hang');
      child = await startWorkerProcess(app.service.connectionString);
      await app.api(ws.apiKey, 'POST', '/api/v1/records', { folderId: ws.folderId, title: 'Orphan' });
      await receiver.waitFor(1);
      child.kill('SIGKILL');
      await new Promise((resolve) => child!.once('exit', resolve));

      // The killed worker's claim still holds the delivery: nobody may send it yet.
      const claimed = await app.service.db.execute<{
        status: string;
        attempt_count: number;
        claimed: boolean;
      }>(
        sql`select status, attempt_count, next_attempt_at > now() + interval '30 seconds' as claimed
          from deliveries where webhook_id = ${id}`,
      );
      expect(claimed.rows).toEqual([{ status: 'PENDING', attempt_count: 0, claimed: true }]);

      // The claim runs out (it is made older), and a live worker takes the delivery over.
      child = await startWorkerProcess(app.service.connectionString);
      await app.service.db.execute(
        sql`update deliveries set next_attempt_at = now() - interval '1 second' where webhook_id = ${id}`,
      );

      const delivered = await eventually(async () => {
        const result = await app.service.db.execute<{ status: string }>(
          sql`select status from deliveries where webhook_id = ${id}`,
        );
        return result.rows[0]?.status === 'SUCCEEDED' ? result.rows[0] : undefined;
      }, 30_000);
      expect(delivered.status).toBe('SUCCEEDED');
      expect(receiver.requests).toHaveLength(2);
      expect(receiver.requests[0]!.headers['webhook-id']).toBe(receiver.requests[1]!.headers['webhook-id']);
      // Two worker starts, the first delivery awaited (15 s at most) and the takeover (30 s).
    },
    budget({ processStarts: 2, requests: 10, waitsMs: 15_000 + 30_000 }),
  );
});

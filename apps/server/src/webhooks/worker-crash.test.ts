import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { schema } from '@crm/db';
import { newId } from '@crm/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, Receiver } from '../testing/receiver.ts';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';

const main = join(dirname(fileURLToPath(import.meta.url)), '..', 'main.ts');

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
  if (child && child.exitCode === null) child.kill('SIGKILL');
  await receiver?.stop();
  await app?.stop();
});

/** A separate server process running the worker, as in production. */
function startWorkerProcess(): Promise<ChildProcess> {
  const proc = spawn(process.execPath, ['--import', 'tsx', main], {
    env: {
      ...process.env,
      DATABASE_URL: app.service.connectionString,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      RUN_WORKER: 'true',
      WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32',
      WEBHOOK_TIMEOUT_MS: '60000',
      WORKER_POLL_INTERVAL_MS: '50',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('worker process did not start')), 30_000);
    proc.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('service listening')) {
        clearTimeout(timer);
        resolve(proc);
      }
    });
  });
}

describe('a worker killed mid-delivery', () => {
  it("does not strand the delivery: another worker sends it once the dead one's claim runs out", async () => {
    const id = newId('webhook');
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    await app.service.db
      .insert(schema.webhooks)
      .values({ workspaceId: ws.workspaceId, id, url: receiver.url, events: ['record.created'], secret });
    // The first attempt hangs, so the worker process is in the middle of it when killed.
    receiver.reply('hang');
    child = await startWorkerProcess();
    await app.api(ws.apiKey, 'POST', '/api/v1/records', { folderId: ws.folderId, title: 'Orphan' });
    await receiver.waitFor(1);
    child.kill('SIGKILL');
    await new Promise((resolve) => child!.once('exit', resolve));

    // The killed worker's claim still holds the delivery: nobody may send it yet.
    const claimed = await app.service.db.execute<{ status: string; attempt_count: number; claimed: boolean }>(
      sql`select status, attempt_count, next_attempt_at > now() + interval '30 seconds' as claimed
          from deliveries where webhook_id = ${id}`,
    );
    expect(claimed.rows).toEqual([{ status: 'PENDING', attempt_count: 0, claimed: true }]);

    // The claim runs out (it is made older), and a live worker takes the delivery over.
    child = await startWorkerProcess();
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
  });
});

import type { ChildProcess } from 'node:child_process';
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
  // This process serves the API only; workers run in child processes, one of them to be killed.
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

describe('a worker killed mid-run', () => {
  it(
    'does not strand the run: another worker finishes it without repeating the steps that succeeded',
    async () => {
      const saved = await app.api(ws.apiKey, 'POST', '/api/v1/workflows', {
        name: 'Sync lead',
        trigger: { type: 'INCOMING_WEBHOOK' },
        actions: [
          { type: 'CREATE_RECORD', folderId: ws.folderId, title: '{{ trigger.body.name }}' },
          { type: 'HTTP_REQUEST', url: `${receiver.url}/sync`, body: { id: '{{ steps.0.output.id }}' } },
        ],
      });
      expect(saved.status).toBe(201);
      // The call of step 1 hangs, so the worker process is in the middle of the run when killed.
      receiver.reply('hang');
      child = await startWorkerProcess(app.service.connectionString);
      const accepted = await app.api(null, 'POST', new URL(saved.body.data.trigger.url).pathname, {
        name: 'Orphan',
      });
      expect(accepted.status).toBe(200);
      const runId = accepted.body.runId as string;
      await receiver.waitFor(1);
      child.kill('SIGKILL');
      await new Promise((resolve) => child!.once('exit', resolve));

      const stranded = await app.api(ws.apiKey, 'GET', `/api/v1/runs/${runId}`);
      expect(stranded.body.data.status).toBe('RUNNING');
      expect(stranded.body.data.steps.map((s: { status: string }) => s.status)).toEqual([
        'SUCCEEDED',
        'PENDING',
      ]);

      // Two minutes pass (the lock is made older), and the minute's sweep runs on a live worker.
      await app.service.db.execute(
        sql`update graphile_worker._private_jobs set locked_at = now() - interval '10 minutes' where locked_by is not null`,
      );
      child = await startWorkerProcess(app.service.connectionString);
      await app.service.db.execute(sql`select graphile_worker.add_job('unlock_stuck_jobs', '{}'::json)`);

      const finished = await eventually(async () => {
        const res = await app.api(ws.apiKey, 'GET', `/api/v1/runs/${runId}`);
        return res.body.data.status === 'SUCCEEDED' ? res.body.data : undefined;
      }, 30_000);
      expect(finished.steps.map((s: { status: string }) => s.status)).toEqual(['SUCCEEDED', 'SUCCEEDED']);
      const records = await app.api(ws.apiKey, 'GET', `/api/v1/records?search=Orphan`);
      expect(records.body.data).toHaveLength(1);
      // The interrupted call is made again (at least once): same body both times.
      expect(receiver.requests).toHaveLength(2);
      expect(receiver.requests[1]!.body.toString()).toBe(receiver.requests[0]!.body.toString());
      // Two worker starts, the first call awaited (15 s at most) and the takeover (30 s).
    },
    budget({ processStarts: 2, requests: 10, waitsMs: 15_000 + 30_000 }),
  );
});

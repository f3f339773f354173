import { closePool, createDatabase, createPool, type Database } from '@crm/db';
import { createTestDatabase, type TestDatabase } from '@crm/db/testing';
import { type Actor, createRecord, createWebhook } from '@crm/domain';
import { newWorkspace, type TestWorkspace } from '@crm/domain/testing';
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readEnv } from '../env.ts';
import { createLogger } from '../logger.ts';
import { outboundSettings } from '../outbound.ts';
import { eventually, Receiver } from '../testing/receiver.ts';
import { drainLegacyWebhookJobs } from './legacy-webhook-jobs.ts';
import { startWorker, type Worker } from './start-worker.ts';

let database: TestDatabase;
let pool: pg.Pool;
let db: Database;
let worker: Worker | undefined;
const receiver = new Receiver();

beforeAll(async () => {
  database = await createTestDatabase();
  pool = createPool({ connectionString: database.connectionString, max: 6 });
  db = createDatabase(pool);
  await receiver.start();
});
afterEach(async () => {
  await worker?.stop();
  worker = undefined;
});
afterAll(async () => {
  await receiver.stop();
  await closePool(pool);
  await database.drop();
});

const services = { checkOutboundUrl: async () => {} };
const subscribe = (actor: Actor, events: string[], url = 'https://hooks.example.com/x') =>
  createWebhook(db, actor, { url, events }, services);

/** A job as a version before the deliveries table became the queue added it; returns its id. */
async function queueLegacyJob(task: 'fan_out_event' | 'deliver_webhook', payload: object): Promise<string> {
  const { rows } = await pool.query<{ id: string }>(
    'select id::text from graphile_worker.add_job($1, $2::json, max_attempts := 25)',
    [task, JSON.stringify(payload)],
  );
  return rows[0]!.id;
}

const legacyJobs = async () =>
  (
    await pool.query<{ id: string; task: string }>(
      `select id::text, task_identifier as task from graphile_worker.jobs
        where task_identifier in ('fan_out_event', 'deliver_webhook') order by id`,
    )
  ).rows;

const deliveriesOf = async (webhookId: string) =>
  (
    await pool.query<{ event_id: string; status: string; due: boolean }>(
      `select event_id, status, next_attempt_at <= now() as due from deliveries
        where webhook_id = $1 order by event_id`,
      [webhookId],
    )
  ).rows;

/** A record created before its workspace subscribed: its event has no delivery yet. */
async function eventWithoutDeliveries(ws: TestWorkspace, title: string): Promise<string> {
  const { record } = await createRecord(db, ws.actor, { folderId: ws.peopleFolderId, title });
  const { rows } = await pool.query<{ id: string }>(
    `select id from events where workspace_id = $1 and type = 'record.created' and payload->>'recordId' = $2`,
    [ws.actor.workspaceId, record.id],
  );
  return rows[0]!.id;
}

describe('webhook jobs left by an earlier version', () => {
  it("turns each fan_out_event job into its event's deliveries, due now, and removes the jobs", async () => {
    const ws = await newWorkspace(db);
    const ada = await eventWithoutDeliveries(ws, 'Ada');
    const grace = await eventWithoutDeliveries(ws, 'Grace');
    const hook = await subscribe(ws.actor, ['record.created']);
    // The payload those versions wrote: the event's id alone.
    await queueLegacyJob('fan_out_event', { eventId: ada });
    await queueLegacyJob('fan_out_event', { eventId: grace });
    // A job retried after its deliveries were made, and one of an event pruned since.
    await queueLegacyJob('fan_out_event', { eventId: ada });
    await queueLegacyJob('fan_out_event', { eventId: 'evt_pruned_long_ago' });

    expect(await drainLegacyWebhookJobs(pool, db)).toEqual({
      fannedOut: 4,
      deliveries: 2,
      deliverJobs: 0,
      failedJobs: 0,
      removed: 4,
    });
    expect(await deliveriesOf(hook.id)).toEqual(
      [ada, grace].sort().map((eventId) => ({ event_id: eventId, status: 'PENDING', due: true })),
    );
    expect(await legacyJobs()).toEqual([]);
    // Drained once: the next start finds nothing and makes nothing.
    expect(await drainLegacyWebhookJobs(pool, db)).toEqual({
      fannedOut: 0,
      deliveries: 0,
      deliverJobs: 0,
      failedJobs: 0,
      removed: 0,
    });
    expect(await deliveriesOf(hook.id)).toHaveLength(2);
  });

  it('removes deliver_webhook jobs and fan-outs that had failed for good, unrun, and leaves a job a worker holds', async () => {
    const ws = await newWorkspace(db);
    const event = await eventWithoutDeliveries(ws, 'Ada');
    const hook = await subscribe(ws.actor, ['record.created']);
    await queueLegacyJob('deliver_webhook', { deliveryId: 'dlv_sent_by_the_queue' });
    const failed = await queueLegacyJob('fan_out_event', { eventId: event });
    await pool.query('select graphile_worker.permanently_fail_jobs(array[$1::bigint])', [failed]);
    const held = await queueLegacyJob('fan_out_event', { eventId: event });
    await pool.query(
      `update graphile_worker._private_jobs set locked_at = now(), locked_by = 'a-running-worker' where id = $1`,
      [held],
    );

    expect(await drainLegacyWebhookJobs(pool, db)).toEqual({
      fannedOut: 0,
      deliveries: 0,
      deliverJobs: 1,
      failedJobs: 1,
      removed: 2,
    });
    expect(await deliveriesOf(hook.id)).toEqual([]);
    expect(await legacyJobs()).toEqual([{ id: held, task: 'fan_out_event' }]);

    // Its worker gone for hours, graphile-worker counts the job as free: the drain takes it.
    await pool.query(
      `update graphile_worker._private_jobs set locked_at = now() - interval '5 hours' where id = $1`,
      [held],
    );
    expect(await drainLegacyWebhookJobs(pool, db)).toMatchObject({ fannedOut: 1, deliveries: 1, removed: 1 });
    expect(await legacyJobs()).toEqual([]);
  });

  it('are drained when a worker starts, which logs the count and sends the deliveries', async () => {
    const ws = await newWorkspace(db);
    const event = await eventWithoutDeliveries(ws, 'Ada');
    const hook = await subscribe(ws.actor, ['record.created'], `${receiver.url}/legacy`);
    await queueLegacyJob('fan_out_event', { eventId: event });
    await queueLegacyJob('deliver_webhook', { deliveryId: 'dlv_sent_by_the_queue' });

    const lines: Record<string, unknown>[] = [];
    const logger = createLogger('info', { write: (line: string) => void lines.push(JSON.parse(line)) });
    const env = readEnv({ DATABASE_URL: database.connectionString, WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32' });
    const outbound = outboundSettings(env);
    worker = await startWorker({
      pool,
      db,
      connectionString: database.connectionString,
      logger,
      outbound,
      workflows: { http: outbound, retry: { scale: 0.01, jitter: 0 } },
      pollIntervalMs: 200,
    });

    expect(lines.filter((line) => String(line.msg).startsWith('drained webhook jobs'))).toEqual([
      expect.objectContaining({ fannedOut: 1, deliveries: 1, deliverJobs: 1, failedJobs: 0, removed: 2 }),
    ]);
    expect(await legacyJobs()).toEqual([]);
    const received = await eventually(
      async () => receiver.requests.find((request) => request.path === '/legacy'),
      15_000,
    );
    expect(JSON.parse(received.body.toString())).toMatchObject({ id: event, event: 'record.created' });
    await eventually(async () =>
      (await deliveriesOf(hook.id))[0]?.status === 'SUCCEEDED' ? true : undefined,
    );
  }, 30_000);
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecord } from '../records/create-record.ts';
import type { Actor } from '../shared/actor.ts';
import { newWorkspace, openTestDb, type TestDb } from '../testing/fixtures.ts';
import { type ClaimedDelivery, claimDueDeliveries, releaseDeliveries } from './claim-deliveries.ts';
import { createWebhook } from './create-webhook.ts';
import { type AttemptOutcome, saveDeliveryAttempts } from './save-delivery-attempts.ts';

let t: TestDb;
beforeAll(async () => {
  t = await openTestDb();
});
afterAll(() => t?.close());

const policy = { scale: 1, jitter: 0 };
const services = { checkOutboundUrl: async () => {} };
const subscribe = (actor: Actor) =>
  createWebhook(t.db, actor, { url: 'https://hooks.example.com/x', events: ['record.created'] }, services);

/** Claims every due delivery and keeps this workspace's (other tests' are left to their claims). */
async function claimOf(workspaceId: string): Promise<ClaimedDelivery[]> {
  const claimed = await claimDueDeliveries(t.db, 1_000);
  return claimed.filter((d) => d.workspaceId === workspaceId);
}

const answered = (status: number, headers: Record<string, string> = {}): AttemptOutcome => ({
  startedAt: new Date(),
  durationMs: 12.4,
  status,
  headers,
  excerpt: `answer ${status}`,
  error: status >= 200 && status < 300 ? undefined : `HTTP ${status}`,
});

const stateOf = async (deliveryId: string) => {
  const [row] = await t.query<{ status: string; attempt_count: number; wait: number | null }>(
    `select status, attempt_count, extract(epoch from next_attempt_at - now())::float8 as wait
     from deliveries where id = $1`,
    [deliveryId],
  );
  return row!;
};

const attemptsOf = (deliveryId: string) =>
  t.query<{
    attempt: number;
    response_status: number | null;
    error: string | null;
    response_excerpt: string | null;
    duration_ms: number;
  }>(
    'select attempt, response_status, error, response_excerpt, duration_ms from delivery_attempts where delivery_id = $1 order by attempt',
    [deliveryId],
  );

const webhookOf = async (id: string) => {
  const [row] = await t.query<{
    enabled: boolean;
    disabled_reason: string | null;
    failing_since: Date | null;
    last_success_at: Date | null;
  }>('select enabled, disabled_reason, failing_since, last_success_at from webhooks where id = $1', [id]);
  return row!;
};

describe('claiming due deliveries', () => {
  it('gives each due delivery to one claim only, and holds it until the claim runs out', async () => {
    const ws = await newWorkspace(t.db);
    await subscribe(ws.actor);
    for (const title of ['A', 'B', 'C', 'D', 'E']) {
      await createRecord(t.db, ws.actor, { folderId: ws.peopleFolderId, title });
    }
    await t.warm(2);
    const [first, second] = await Promise.all([claimDueDeliveries(t.db, 3), claimDueDeliveries(t.db, 3)]);
    const mine = [...first!, ...second!].filter((d) => d.workspaceId === ws.actor.workspaceId);
    const ids = mine.map((d) => d.id);
    expect(new Set(ids).size).toBe(ids.length);
    const rest = await claimOf(ws.actor.workspaceId);
    expect(ids.length + rest.length).toBe(5);
    expect(await claimOf(ws.actor.workspaceId)).toEqual([]);
    const claimed = [...mine, ...rest][0]!;
    expect(claimed).toMatchObject({
      attemptCount: 0,
      webhook: { url: 'https://hooks.example.com/x', enabled: true },
      event: { type: 'record.created', payload: { event: 'record.created' } },
    });
    expect(claimed.leaseUntil.getTime()).toBeGreaterThan(Date.now() + 50_000);
  });
});

describe('claiming around busy subscriptions', () => {
  it('leaves the deliveries of the subscriptions it is told to skip for a later claim', async () => {
    const ws = await newWorkspace(t.db);
    const busy = await subscribe(ws.actor);
    const free = await subscribe(ws.actor);
    await createRecord(t.db, ws.actor, { folderId: ws.peopleFolderId, title: 'One' });
    await createRecord(t.db, ws.actor, { folderId: ws.peopleFolderId, title: 'Two' });
    const first = (await claimDueDeliveries(t.db, 1_000, undefined, [busy.id])).filter(
      (d) => d.workspaceId === ws.actor.workspaceId,
    );
    expect(first.map((d) => d.webhookId)).toEqual([free.id, free.id]);
    const later = await claimOf(ws.actor.workspaceId);
    expect(later.map((d) => d.webhookId)).toEqual([busy.id, busy.id]);
  });
});

describe('giving claimed deliveries back', () => {
  it('makes them due as before the claim, untouched, unless the claim has run out', async () => {
    const ws = await newWorkspace(t.db);
    await subscribe(ws.actor);
    await createRecord(t.db, ws.actor, { folderId: ws.peopleFolderId, title: 'Back' });
    await createRecord(t.db, ws.actor, { folderId: ws.peopleFolderId, title: 'Taken' });
    const [back, taken] = await claimOf(ws.actor.workspaceId);
    await t.query(`update deliveries set next_attempt_at = now() - interval '1 second' where id = $1`, [
      taken!.id,
    ]);
    const [retaken] = await claimOf(ws.actor.workspaceId);
    expect(retaken!.id).toBe(taken!.id);
    await releaseDeliveries(t.db, [back!, taken!]);
    const [row] = await t.query<{ status: string; attempt_count: number; next_attempt_at: Date }>(
      'select status, attempt_count, next_attempt_at from deliveries where id = $1',
      [back!.id],
    );
    expect(row).toEqual({ status: 'PENDING', attempt_count: 0, next_attempt_at: back!.dueAt });
    // The stale claim on the other gives nothing back: it stays with its new claim.
    expect((await stateOf(taken!.id)).wait).toBeGreaterThan(50);
    expect((await claimOf(ws.actor.workspaceId)).map((d) => d.id)).toEqual([back!.id]);
  });
});

describe('recording a batch of attempts', () => {
  it('records mixed outcomes in one call, each delivery on its own schedule', async () => {
    const ws = await newWorkspace(t.db);
    const ok = await subscribe(ws.actor);
    const flaky = await subscribe(ws.actor);
    const gone = await subscribe(ws.actor);
    await createRecord(t.db, ws.actor, { folderId: ws.peopleFolderId, title: 'One' });
    await createRecord(t.db, ws.actor, { folderId: ws.peopleFolderId, title: 'Two' });
    const claimed = await claimOf(ws.actor.workspaceId);
    expect(claimed).toHaveLength(6);
    const of = (webhookId: string) => claimed.filter((d) => d.webhookId === webhookId);
    const [ok1, ok2] = of(ok.id);
    const [flaky1, flaky2] = of(flaky.id);
    const [gone1, gone2] = of(gone.id);
    const verdicts = await saveDeliveryAttempts(
      t.db,
      [
        { delivery: ok1!, outcome: answered(200) },
        { delivery: ok2!, outcome: answered(204) },
        { delivery: flaky1!, outcome: answered(500) },
        { delivery: flaky2!, outcome: answered(429, { 'retry-after': '120' }) },
        { delivery: gone1!, outcome: answered(410) },
        { delivery: gone2!, outcome: answered(200) },
      ],
      policy,
    );
    expect(Object.fromEntries(verdicts)).toEqual({
      [ok1!.id]: 'succeeded',
      [ok2!.id]: 'succeeded',
      [flaky1!.id]: 'retry',
      [flaky2!.id]: 'retry',
      [gone1!.id]: 'disabled',
      [gone2!.id]: 'succeeded',
    });
    expect(await stateOf(ok1!.id)).toMatchObject({ status: 'SUCCEEDED', attempt_count: 1, wait: null });
    // 5 s after the first failure; Retry-After's 120 s when longer than the schedule.
    const retried = await stateOf(flaky1!.id);
    expect(retried).toMatchObject({ status: 'PENDING', attempt_count: 1 });
    expect(retried.wait).toBeGreaterThan(3);
    expect(retried.wait).toBeLessThan(6);
    expect((await stateOf(flaky2!.id)).wait).toBeGreaterThan(115);
    expect(await stateOf(gone1!.id)).toMatchObject({ status: 'FAILED', attempt_count: 1 });
    expect(await attemptsOf(flaky1!.id)).toEqual([
      {
        attempt: 1,
        response_status: 500,
        error: 'HTTP 500',
        response_excerpt: 'answer 500',
        duration_ms: 12,
      },
    ]);
    expect(await webhookOf(gone.id)).toMatchObject({
      enabled: false,
      disabled_reason: 'The receiver answered 410 Gone',
    });
    expect(await webhookOf(flaky.id)).toMatchObject({ enabled: true, failing_since: expect.any(Date) });
    expect(await webhookOf(ok.id)).toMatchObject({ failing_since: null, last_success_at: expect.any(Date) });
    // Nothing of this workspace is due now: the retries wait for their time.
    expect(await claimOf(ws.actor.workspaceId)).toEqual([]);
  });

  it('records nothing for a claim that ran out and was taken over, and the new claim once', async () => {
    const ws = await newWorkspace(t.db);
    await subscribe(ws.actor);
    await createRecord(t.db, ws.actor, { folderId: ws.peopleFolderId, title: 'Slow' });
    const [stale] = await claimOf(ws.actor.workspaceId);
    await t.query(`update deliveries set next_attempt_at = now() - interval '1 second' where id = $1`, [
      stale!.id,
    ]);
    const [fresh] = await claimOf(ws.actor.workspaceId);
    expect(fresh!.id).toBe(stale!.id);
    const late = await saveDeliveryAttempts(t.db, [{ delivery: stale!, outcome: answered(200) }], policy);
    expect(late.get(stale!.id)).toBe('lost');
    expect(await attemptsOf(stale!.id)).toEqual([]);
    const recorded = await saveDeliveryAttempts(t.db, [{ delivery: fresh!, outcome: answered(200) }], policy);
    expect(recorded.get(fresh!.id)).toBe('succeeded');
    const again = await saveDeliveryAttempts(t.db, [{ delivery: fresh!, outcome: answered(200) }], policy);
    expect(again.get(fresh!.id)).toBe('lost');
    expect(await attemptsOf(fresh!.id)).toHaveLength(1);
  });

  it('disables a subscription failing for 5 days, and a success clears the failing streak', async () => {
    const ws = await newWorkspace(t.db);
    const hopeless = await subscribe(ws.actor);
    const recovering = await subscribe(ws.actor);
    await t.query(
      `update webhooks set failing_since = now() - interval '5 days 1 minute' where id = $1 or id = $2`,
      [hopeless.id, recovering.id],
    );
    await createRecord(t.db, ws.actor, { folderId: ws.peopleFolderId, title: 'Late' });
    const claimed = await claimOf(ws.actor.workspaceId);
    const hopelessOne = claimed.find((d) => d.webhookId === hopeless.id)!;
    const recoveringOne = claimed.find((d) => d.webhookId === recovering.id)!;
    const verdicts = await saveDeliveryAttempts(
      t.db,
      [
        {
          delivery: hopelessOne,
          outcome: { startedAt: new Date(), durationMs: 5, error: 'connection refused' },
        },
        { delivery: recoveringOne, outcome: answered(200) },
      ],
      policy,
    );
    expect(verdicts.get(hopelessOne.id)).toBe('disabled');
    expect(verdicts.get(recoveringOne.id)).toBe('succeeded');
    expect(await stateOf(hopelessOne.id)).toMatchObject({ status: 'FAILED', wait: null });
    expect(await attemptsOf(hopelessOne.id)).toMatchObject([
      { response_status: null, error: 'connection refused' },
    ]);
    expect(await webhookOf(hopeless.id)).toMatchObject({
      enabled: false,
      disabled_reason: 'No successful delivery for 5 days',
    });
    expect(await webhookOf(recovering.id)).toMatchObject({ enabled: true, failing_since: null });
  });

  it('fails a delivery whose attempts ran out, and closes one without an attempt when told to', async () => {
    const ws = await newWorkspace(t.db);
    await subscribe(ws.actor);
    await createRecord(t.db, ws.actor, { folderId: ws.peopleFolderId, title: 'Last' });
    await createRecord(t.db, ws.actor, { folderId: ws.peopleFolderId, title: 'Closed' });
    const [last, closed] = await claimOf(ws.actor.workspaceId);
    await t.query('update deliveries set attempt_count = 9 where id = $1', [last!.id]);
    const verdicts = await saveDeliveryAttempts(
      t.db,
      [
        { delivery: { ...last!, attemptCount: 9 }, outcome: answered(503) },
        { delivery: closed!, outcome: null },
      ],
      policy,
    );
    expect(verdicts.get(last!.id)).toBe('failed');
    expect(verdicts.get(closed!.id)).toBe('cancelled');
    expect(await stateOf(last!.id)).toMatchObject({ status: 'FAILED', attempt_count: 10 });
    expect(await attemptsOf(last!.id)).toMatchObject([{ attempt: 10, response_status: 503 }]);
    expect(await stateOf(closed!.id)).toMatchObject({ status: 'FAILED', attempt_count: 0 });
    expect(await attemptsOf(closed!.id)).toEqual([]);
  });

  it('keeps an excerpt holding NUL characters, without them', async () => {
    const ws = await newWorkspace(t.db);
    await subscribe(ws.actor);
    await createRecord(t.db, ws.actor, { folderId: ws.peopleFolderId, title: 'Binary' });
    const [delivery] = await claimOf(ws.actor.workspaceId);
    const outcome = { ...answered(500), excerpt: 'a\u0000b' };
    await saveDeliveryAttempts(t.db, [{ delivery: delivery!, outcome }], policy);
    expect(await attemptsOf(delivery!.id)).toMatchObject([{ response_excerpt: 'ab' }]);
  });
});

describe('recording a batch across tenants', () => {
  it('records every other attempt when PostgreSQL refuses what one attempt carried', async () => {
    const a = await newWorkspace(t.db);
    const b = await newWorkspace(t.db);
    await subscribe(a.actor);
    await subscribe(b.actor);
    for (const ws of [a, b]) {
      for (const title of ['One', 'Two', 'Three']) {
        await createRecord(t.db, ws.actor, { folderId: ws.peopleFolderId, title });
      }
    }
    const mine = new Set([a.actor.workspaceId, b.actor.workspaceId]);
    const claimed = (await claimDueDeliveries(t.db, 1_000)).filter((d) => mine.has(d.workspaceId));
    expect(claimed).toHaveLength(6);
    // An integer column cannot hold this duration: the one attempt the database refuses.
    const refused = claimed[1]!;
    const verdicts = await saveDeliveryAttempts(
      t.db,
      claimed.map((delivery) => ({
        delivery,
        outcome: delivery === refused ? { ...answered(200), durationMs: 1e12 } : answered(200),
      })),
      policy,
    );
    expect(verdicts.get(refused.id)).toBe('lost');
    for (const delivery of claimed) {
      if (delivery === refused) continue;
      expect(verdicts.get(delivery.id)).toBe('succeeded');
      expect((await stateOf(delivery.id)).status).toBe('SUCCEEDED');
    }
    expect((await stateOf(refused.id)).status).toBe('PENDING');
    expect(await attemptsOf(refused.id)).toEqual([]);
  });

  it('stores an excerpt cut inside a surrogate pair, and one holding NUL, instead of failing the batch', async () => {
    const ws = await newWorkspace(t.db);
    await subscribe(ws.actor);
    await createRecord(t.db, ws.actor, { folderId: ws.peopleFolderId, title: 'Emoji' });
    await createRecord(t.db, ws.actor, { folderId: ws.peopleFolderId, title: 'Nul' });
    const [first, second] = await claimOf(ws.actor.workspaceId);
    const verdicts = await saveDeliveryAttempts(
      t.db,
      [
        { delivery: first!, outcome: { ...answered(500), excerpt: 'cut 😀'.slice(0, 5) } },
        { delivery: second!, outcome: { ...answered(500), excerpt: 'a\u0000b', error: 'x\ud800' } },
      ],
      policy,
    );
    expect(verdicts.get(first!.id)).toBe('retry');
    expect(verdicts.get(second!.id)).toBe('retry');
    expect((await attemptsOf(first!.id))[0]!.response_excerpt).toBe('cut \ufffd');
    expect((await attemptsOf(second!.id))[0]).toMatchObject({ response_excerpt: 'ab', error: 'x\ufffd' });
  });
});

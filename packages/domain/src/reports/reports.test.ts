import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeal } from '../deals/create-deal.ts';
import { createPipeline } from '../pipelines/create-pipeline.ts';
import { summarizePipeline } from '../pipelines/summarize-pipeline.ts';
import type { Actor } from '../shared/actor.ts';
import { expectDomainError, newWorkspace, openTestDb, type TestDb } from '../testing/fixtures.ts';
import { reportAutomationRuns } from './report-automation-runs.ts';
import { reportWebhookHealth } from './report-webhook-health.ts';
import { reportWonLost } from './report-won-lost.ts';

let t: TestDb;
beforeAll(async () => {
  t = await openTestDb();
});
afterAll(() => t?.close());

/** Every report below is asked at this instant: a Friday afternoon, UTC. */
const NOW = new Date('2026-11-20T15:00:00Z');

async function salesPipeline(actor: Actor) {
  const [row] = await t.query<{ id: string }>(`select id from pipelines where workspace_id = $1`, [
    actor.workspaceId,
  ]);
  const stages = await t.query<{ id: string; name: string }>(
    `select id, name from stages where workspace_id = $1 and pipeline_id = $2 order by position`,
    [actor.workspaceId, row!.id],
  );
  const stage = (name: string) => stages.find((s) => s.name === name)!.id;
  return { id: row!.id, stage };
}

/** A deal in a stage, with its close date and last change set as given. */
async function deal(
  actor: Actor,
  pipelineId: string,
  stageId: string,
  values: { amount?: number; currency?: string; closeDate?: string; updatedAt?: string },
) {
  const created = await createDeal(t.db, actor, {
    pipelineId,
    stageId,
    ...(values.amount === undefined ? {} : { amount: values.amount }),
    currency: values.currency ?? 'USD',
    ...(values.closeDate === undefined ? {} : { closeDate: values.closeDate }),
  });
  await t.query(`update deals set updated_at = $3 where workspace_id = $1 and id = $2`, [
    actor.workspaceId,
    created.id,
    values.updatedAt ?? '2026-06-15T12:00:00Z',
  ]);
  return created;
}

const empty = { count: 0, totals: [] };

describe('the pipeline report (summarizePipeline)', () => {
  it('counts and sums every stage per currency, exactly, for the workspace asking only', async () => {
    const ws = await newWorkspace(t.db);
    const other = await newWorkspace(t.db, 'Other');
    const sales = await salesPipeline(ws.actor);
    await deal(ws.actor, sales.id, sales.stage('Lead'), { amount: 0.1 });
    await deal(ws.actor, sales.id, sales.stage('Lead'), { amount: 0.2 });
    await deal(ws.actor, sales.id, sales.stage('Lead'), { amount: 250, currency: 'EUR' });
    await deal(ws.actor, sales.id, sales.stage('Lead'), {});
    await deal(ws.actor, sales.id, sales.stage('Won'), { amount: 1000.1 });
    const theirs = await salesPipeline(other.actor);
    await deal(other.actor, theirs.id, theirs.stage('Lead'), { amount: 5 });

    const summary = await summarizePipeline(t.db, ws.actor, sales.id);
    expect(summary.count).toBe(5);
    expect(summary.totals).toEqual([
      { currency: 'EUR', count: 1, amount: 250 },
      { currency: 'USD', count: 4, amount: 1000.4 },
    ]);
    expect(summary.stages.map((s) => [s.name, s.count, s.totals])).toEqual([
      [
        'Lead',
        4,
        [
          { currency: 'EUR', count: 1, amount: 250 },
          // 0.1 + 0.2 in numeric: 0.3, not 0.30000000000000004; the deal without an amount counts.
          { currency: 'USD', count: 3, amount: 0.3 },
        ],
      ],
      ['Qualified', 0, []],
      ['Proposal', 0, []],
      ['Won', 1, [{ currency: 'USD', count: 1, amount: 1000.1 }]],
      ['Lost', 0, []],
    ]);
    await expectDomainError(summarizePipeline(t.db, ws.actor, theirs.id), 'NOT_FOUND');
  });
});

describe('reportWonLost', () => {
  it('counts and sums won and lost deals per month and currency over the last 12 months (UTC)', async () => {
    const ws = await newWorkspace(t.db);
    const other = await newWorkspace(t.db, 'Other');
    const sales = await salesPipeline(ws.actor);
    const won = sales.stage('Won');
    const lost = sales.stage('Lost');
    // November 2026: three won in USD (one without an amount) and one in EUR.
    await deal(ws.actor, sales.id, won, { amount: 1000.1, closeDate: '2026-11-03' });
    await deal(ws.actor, sales.id, won, { amount: 250.25, closeDate: '2026-11-30' });
    await deal(ws.actor, sales.id, won, { closeDate: '2026-11-15' });
    await deal(ws.actor, sales.id, won, { amount: 0.05, currency: 'EUR', closeDate: '2026-11-20' });
    // Without a close date a deal counts in the month (UTC) of its last change.
    await deal(ws.actor, sales.id, won, { amount: 300, currency: 'EUR', updatedAt: '2026-10-31T23:59:59Z' });
    await deal(ws.actor, sales.id, lost, { amount: 7, updatedAt: '2026-11-01T00:00:00+01:00' });
    // The first month of the window, and the months just outside it on either side.
    await deal(ws.actor, sales.id, lost, { amount: 99.99, closeDate: '2025-12-01' });
    await deal(ws.actor, sales.id, lost, { amount: 5, closeDate: '2025-11-30' });
    await deal(ws.actor, sales.id, won, { amount: 1, closeDate: '2026-12-01' });
    // Neither won nor lost.
    await deal(ws.actor, sales.id, sales.stage('Proposal'), { amount: 500, closeDate: '2026-11-10' });
    // Another workspace's won deal.
    const theirs = await salesPipeline(other.actor);
    await deal(other.actor, theirs.id, theirs.stage('Won'), { amount: 42, closeDate: '2026-11-05' });

    const report = await reportWonLost(t.db, ws.actor, sales.id, NOW);
    expect(report).toMatchObject({
      pipelineId: sales.id,
      from: '2025-12-01',
      to: '2026-12-01',
      wonStages: [{ stageId: won, name: 'Won' }],
      lostStages: [{ stageId: lost, name: 'Lost' }],
      currencies: ['EUR', 'USD'],
    });
    expect(report.months.map((m) => m.month)).toEqual([
      '2025-12',
      '2026-01',
      '2026-02',
      '2026-03',
      '2026-04',
      '2026-05',
      '2026-06',
      '2026-07',
      '2026-08',
      '2026-09',
      '2026-10',
      '2026-11',
    ]);
    const byMonth = new Map(report.months.map((m) => [m.month, m]));
    expect(byMonth.get('2026-11')).toEqual({
      month: '2026-11',
      won: {
        count: 4,
        totals: [
          { currency: 'EUR', count: 1, amount: 0.05 },
          { currency: 'USD', count: 3, amount: 1250.35 },
        ],
      },
      lost: empty,
    });
    expect(byMonth.get('2026-10')).toEqual({
      month: '2026-10',
      won: { count: 1, totals: [{ currency: 'EUR', count: 1, amount: 300 }] },
      // 2026-11-01T00:00:00+01:00 is still October in UTC.
      lost: { count: 1, totals: [{ currency: 'USD', count: 1, amount: 7 }] },
    });
    expect(byMonth.get('2025-12')).toEqual({
      month: '2025-12',
      won: empty,
      lost: { count: 1, totals: [{ currency: 'USD', count: 1, amount: 99.99 }] },
    });
    for (const month of report.months.slice(1, 10))
      expect(month).toEqual({ month: month.month, won: empty, lost: empty });
  });

  it('sums amounts exactly to the cent', async () => {
    const ws = await newWorkspace(t.db);
    const sales = await salesPipeline(ws.actor);
    for (const amount of [0.1, 0.2, 999_999_999.99, 0.01]) {
      await deal(ws.actor, sales.id, sales.stage('Won'), { amount, closeDate: '2026-11-02' });
    }
    const report = await reportWonLost(t.db, ws.actor, sales.id, NOW);
    expect(report.months.at(-1)!.won.totals).toEqual([
      { currency: 'USD', count: 4, amount: 1_000_000_000.3 },
    ]);
  });

  it('finds "Closed won" and "Closed lost" stages in any case, and says when a pipeline has neither', async () => {
    const ws = await newWorkspace(t.db);
    const custom = await createPipeline(t.db, ws.actor, {
      name: 'Partners',
      stages: ['Talking', ' closed WON', 'Closed lost'],
    });
    const [, closedWon, closedLost] = custom.stages;
    await deal(ws.actor, custom.id, closedWon!.id, { amount: 10, closeDate: '2026-01-31' });
    const report = await reportWonLost(t.db, ws.actor, custom.id, NOW);
    expect(report.wonStages).toEqual([{ stageId: closedWon!.id, name: ' closed WON' }]);
    expect(report.lostStages).toEqual([{ stageId: closedLost!.id, name: 'Closed lost' }]);
    expect(report.months.find((m) => m.month === '2026-01')!.won).toEqual({
      count: 1,
      totals: [{ currency: 'USD', count: 1, amount: 10 }],
    });

    const bare = await createPipeline(t.db, ws.actor, { name: 'Bare', stages: ['Open', 'Done'] });
    const none = await reportWonLost(t.db, ws.actor, bare.id, NOW);
    expect(none).toMatchObject({ wonStages: [], lostStages: [], currencies: [] });
    expect(none.months).toHaveLength(12);
  });

  it("answers 404 for another workspace's pipeline", async () => {
    const ws = await newWorkspace(t.db);
    const other = await newWorkspace(t.db, 'Other');
    const theirs = await salesPipeline(other.actor);
    await expectDomainError(reportWonLost(t.db, ws.actor, theirs.id, NOW), 'NOT_FOUND');
  });
});

async function webhook(workspaceId: string, id: string, createdAt: string) {
  await t.query(
    `insert into webhooks (workspace_id, id, url, events, secret, created_at)
     values ($1, $2, $3, '{*}', 'whsec_x', $4)`,
    [workspaceId, id, `https://hooks.example/${id}`, createdAt],
  );
}

async function delivery(
  workspaceId: string,
  webhookId: string,
  id: string,
  status: string,
  createdAt: string,
) {
  await t.query(
    `insert into deliveries (workspace_id, id, webhook_id, event_id, status, created_at)
     values ($1, $2, $3, $4, $5, $6)`,
    [workspaceId, id, webhookId, `evt_${id}`, status, createdAt],
  );
}

async function attempt(
  workspaceId: string,
  deliveryId: string,
  n: number,
  startedAt: string,
  durationMs: number,
  responseStatus: number | null,
) {
  await t.query(
    `insert into delivery_attempts (workspace_id, id, delivery_id, attempt, started_at, duration_ms, response_status)
     values ($1, $2, $3, $4, $5, $6, $7)`,
    [workspaceId, `att_${deliveryId}_${n}`, deliveryId, n, startedAt, durationMs, responseStatus],
  );
}

const quiet = {
  attemptsSucceeded: 0,
  attemptsFailed: 0,
  successRate: null,
  deliveriesSucceeded: 0,
  deliveriesFailed: 0,
  deliveriesPending: 0,
  p50Ms: null,
  p95Ms: null,
};

describe('reportWebhookHealth', () => {
  it('counts attempts and deliveries per subscription and day over the 7 UTC days ending today', async () => {
    const ws = await newWorkspace(t.db);
    const other = await newWorkspace(t.db, 'Other');
    const w = ws.actor.workspaceId;
    await webhook(w, 'wh_busy', '2026-10-01T00:00:00Z');
    await webhook(w, 'wh_quiet', '2026-10-02T00:00:00Z');
    // The first instant of the window, and the last one.
    await delivery(w, 'wh_busy', 'dlv_first', 'SUCCEEDED', '2026-11-14T00:00:00Z');
    await attempt(w, 'dlv_first', 1, '2026-11-14T00:00:00Z', 100, 500);
    await attempt(w, 'dlv_first', 2, '2026-11-14T00:00:05Z', 40, 200);
    await delivery(w, 'wh_busy', 'dlv_last', 'FAILED', '2026-11-20T23:59:59.999Z');
    await attempt(w, 'dlv_last', 1, '2026-11-20T23:59:59.999Z', 300, null);
    await attempt(w, 'dlv_last', 2, '2026-11-21T00:00:00Z', 10, 200);
    await delivery(w, 'wh_busy', 'dlv_pending', 'PENDING', '2026-11-19T10:00:00Z');
    await attempt(w, 'dlv_pending', 1, '2026-11-19T10:00:00Z', 20, 302);
    // Just before the window and just after it.
    await delivery(w, 'wh_busy', 'dlv_before', 'SUCCEEDED', '2026-11-13T23:59:59.999Z');
    await attempt(w, 'dlv_before', 1, '2026-11-13T23:59:59.999Z', 5, 200);
    await delivery(w, 'wh_busy', 'dlv_after', 'SUCCEEDED', '2026-11-21T00:00:00Z');
    // Another workspace's traffic in the window.
    await webhook(other.actor.workspaceId, 'wh_theirs', '2026-10-01T00:00:00Z');
    await delivery(other.actor.workspaceId, 'wh_theirs', 'dlv_theirs', 'FAILED', '2026-11-15T00:00:00Z');
    await attempt(other.actor.workspaceId, 'dlv_theirs', 1, '2026-11-15T00:00:00Z', 999, 500);

    const report = await reportWebhookHealth(t.db, ws.actor, NOW);
    expect(report.from).toBe('2026-11-14T00:00:00.000Z');
    expect(report.to).toBe('2026-11-21T00:00:00.000Z');
    expect(report.days).toEqual([
      '2026-11-14',
      '2026-11-15',
      '2026-11-16',
      '2026-11-17',
      '2026-11-18',
      '2026-11-19',
      '2026-11-20',
    ]);
    // Newest subscription first; one without traffic is listed too.
    expect(report.subscriptions.map((s) => s.webhookId)).toEqual(['wh_quiet', 'wh_busy']);
    const [idle, busy] = report.subscriptions;
    expect(idle).toMatchObject({ url: 'https://hooks.example/wh_quiet', enabled: true, ...quiet });
    expect(idle!.days).toEqual(report.days.map((day) => ({ day, ...quiet })));
    // Attempts 100 (500), 40 (200), 300 (no answer), 20 (302): durations 20, 40, 100, 300.
    expect(busy).toMatchObject({
      attemptsSucceeded: 1,
      attemptsFailed: 3,
      successRate: 25,
      deliveriesSucceeded: 1,
      deliveriesFailed: 1,
      deliveriesPending: 1,
      p50Ms: 40,
      p95Ms: 300,
    });
    expect(busy!.days).toEqual([
      {
        day: '2026-11-14',
        attemptsSucceeded: 1,
        attemptsFailed: 1,
        successRate: 50,
        deliveriesSucceeded: 1,
        deliveriesFailed: 0,
        deliveriesPending: 0,
        p50Ms: 40,
        p95Ms: 100,
      },
      { day: '2026-11-15', ...quiet },
      { day: '2026-11-16', ...quiet },
      { day: '2026-11-17', ...quiet },
      { day: '2026-11-18', ...quiet },
      {
        day: '2026-11-19',
        ...quiet,
        attemptsFailed: 1,
        successRate: 0,
        deliveriesPending: 1,
        p50Ms: 20,
        p95Ms: 20,
      },
      {
        day: '2026-11-20',
        ...quiet,
        attemptsFailed: 1,
        successRate: 0,
        deliveriesFailed: 1,
        p50Ms: 300,
        p95Ms: 300,
      },
    ]);
  });

  it('rounds the success rate to 0.1 % and takes percentiles by nearest rank', async () => {
    const ws = await newWorkspace(t.db);
    const w = ws.actor.workspaceId;
    await webhook(w, 'wh_many', '2026-10-01T00:00:00Z');
    await delivery(w, 'wh_many', 'dlv_many', 'SUCCEEDED', '2026-11-20T08:00:00Z');
    // 20 attempts of 1..20 ms, the last two of them answered 2xx: 2 of 20 and 1/3 below.
    for (let n = 1; n <= 20; n++) {
      await attempt(
        w,
        'dlv_many',
        n,
        `2026-11-20T08:00:${String(n).padStart(2, '0')}Z`,
        n,
        n > 18 ? 201 : 503,
      );
    }
    await webhook(w, 'wh_third', '2026-10-02T00:00:00Z');
    await delivery(w, 'wh_third', 'dlv_third', 'SUCCEEDED', '2026-11-16T08:00:00Z');
    for (const [n, status] of [
      [1, 500],
      [2, 500],
      [3, 200],
    ] as const) {
      await attempt(w, 'dlv_third', n, `2026-11-16T08:00:0${n}Z`, 7, status);
    }
    const report = await reportWebhookHealth(t.db, ws.actor, NOW);
    const [third, many] = report.subscriptions;
    expect(many).toMatchObject({
      attemptsSucceeded: 2,
      attemptsFailed: 18,
      successRate: 10,
      p50Ms: 10,
      p95Ms: 19,
    });
    expect(third).toMatchObject({
      attemptsSucceeded: 1,
      attemptsFailed: 2,
      successRate: 33.3,
      p50Ms: 7,
      p95Ms: 7,
    });
  });
});

async function workflow(workspaceId: string, id: string) {
  await t.query(
    `insert into workflows (workspace_id, id, name, trigger_type, actions, created_by)
     values ($1, $2, 'Flow', 'INCOMING_WEBHOOK', '[]', 'usr_x')`,
    [workspaceId, id],
  );
}

let runNumber = 0;
async function run(workspaceId: string, workflowId: string, status: string, createdAt: string) {
  runNumber += 1;
  await t.query(
    `insert into workflow_runs (workspace_id, id, workflow_id, status, trigger, input, actions, created_at)
     values ($1, $2, $3, $4, 'INCOMING_WEBHOOK', '{}', '[]', $5)`,
    [workspaceId, `run_${runNumber}`, workflowId, status, createdAt],
  );
}

describe('reportAutomationRuns', () => {
  it('counts runs per UTC day and status over the 14 days ending today, with every day and status', async () => {
    const ws = await newWorkspace(t.db);
    const other = await newWorkspace(t.db, 'Other');
    const w = ws.actor.workspaceId;
    await workflow(w, 'wf_a');
    await workflow(w, 'wf_b');
    await run(w, 'wf_a', 'SUCCEEDED', '2026-11-07T00:00:00Z');
    await run(w, 'wf_a', 'FAILED', '2026-11-06T23:59:59.999Z');
    await run(w, 'wf_a', 'SUCCEEDED', '2026-11-20T10:00:00Z');
    await run(w, 'wf_b', 'SUCCEEDED', '2026-11-20T10:30:00Z');
    await run(w, 'wf_b', 'FAILED', '2026-11-20T11:00:00Z');
    await run(w, 'wf_a', 'RUNNING', '2026-11-20T14:59:00Z');
    await run(w, 'wf_a', 'QUEUED', '2026-11-20T23:59:59.999Z');
    await run(w, 'wf_a', 'QUEUED', '2026-11-21T00:00:00Z');
    // 2026-11-13T23:30:00-01:00 is the 14th in UTC.
    await run(w, 'wf_b', 'FAILED', '2026-11-13T23:30:00-01:00');
    await workflow(other.actor.workspaceId, 'wf_theirs');
    await run(other.actor.workspaceId, 'wf_theirs', 'FAILED', '2026-11-20T10:00:00Z');

    const report = await reportAutomationRuns(t.db, ws.actor, NOW);
    expect(report).toMatchObject({
      from: '2026-11-07T00:00:00.000Z',
      to: '2026-11-21T00:00:00.000Z',
      statuses: ['QUEUED', 'RUNNING', 'WAITING', 'SUCCEEDED', 'FAILED', 'CANCELLED'],
      totals: { queued: 1, running: 1, waiting: 0, succeeded: 3, failed: 2, cancelled: 0, total: 7 },
    });
    expect(report.days).toHaveLength(14);
    const zero = { queued: 0, running: 0, waiting: 0, succeeded: 0, failed: 0, cancelled: 0, total: 0 };
    const expected = new Map([
      ['2026-11-07', { ...zero, succeeded: 1, total: 1 }],
      ['2026-11-14', { ...zero, failed: 1, total: 1 }],
      ['2026-11-20', { ...zero, queued: 1, running: 1, succeeded: 2, failed: 1, total: 5 }],
    ]);
    expect(report.days[0]!.day).toBe('2026-11-07');
    expect(report.days[13]!.day).toBe('2026-11-20');
    for (const day of report.days) expect(day).toEqual({ day: day.day, ...(expected.get(day.day) ?? zero) });
  });

  it('answers zeros for a workspace without runs', async () => {
    const ws = await newWorkspace(t.db);
    const report = await reportAutomationRuns(t.db, ws.actor, NOW);
    expect(report.totals).toEqual({
      queued: 0,
      running: 0,
      waiting: 0,
      succeeded: 0,
      failed: 0,
      cancelled: 0,
      total: 0,
    });
    expect(report.days.every((d) => d.total === 0)).toBe(true);
  });
});

describe('the reports in another session time zone', () => {
  it('count by UTC days and months whatever the time zone of the database session', async () => {
    const ws = await newWorkspace(t.db);
    const w = ws.actor.workspaceId;
    const sales = await salesPipeline(ws.actor);
    await deal(ws.actor, sales.id, sales.stage('Won'), { amount: 1, updatedAt: '2026-10-31T23:30:00Z' });
    await webhook(w, 'wh_tz', '2026-10-01T00:00:00Z');
    await delivery(w, 'wh_tz', 'dlv_tz', 'SUCCEEDED', '2026-11-13T23:30:00Z');
    await attempt(w, 'dlv_tz', 1, '2026-11-13T23:30:00Z', 12, 200);
    await workflow(w, 'wf_tz');
    await run(w, 'wf_tz', 'SUCCEEDED', '2026-11-06T23:30:00Z');
    // UTC+14: each of these instants is already the next day (and month) there.
    const [wonLost, health, runs] = await t.db.transaction(async (tx) => {
      await tx.execute(sql`set local time zone 'Pacific/Kiritimati'`);
      return [
        await reportWonLost(tx, ws.actor, sales.id, NOW),
        await reportWebhookHealth(tx, ws.actor, NOW),
        await reportAutomationRuns(tx, ws.actor, NOW),
      ] as const;
    });
    expect(wonLost.months.find((m) => m.month === '2026-10')!.won.count).toBe(1);
    expect(wonLost.months.find((m) => m.month === '2026-11')!.won.count).toBe(0);
    expect(health.subscriptions[0]).toMatchObject({ attemptsSucceeded: 0, deliveriesSucceeded: 0 });
    expect(runs.totals.total).toBe(0);
  });
});

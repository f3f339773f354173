import type { AppRouter } from '@crm/api';
import { ensureBuilt } from '@crm/web/build';
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Browser,
  browserUnavailable,
  launchBrowser,
  OWNER_PASSWORD,
  setOwnerPassword,
  signIn,
} from '../testing/browser.ts';
import { eventually, Receiver } from '../testing/receiver.ts';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';

const unavailable = browserUnavailable();
if (unavailable) console.warn(`The browser tests (reports.test.ts) are skipped: ${unavailable}.`);

let app: TestApp;
let ws: TestWorkspace;
let email: string;
let browser: Browser;
let pipeline: { id: string; stages: { id: string; name: string }[] };
const receiver = new Receiver();

/** The tRPC procedures the page calls, with the workspace's API key (the reports take keys too). */
const api = () =>
  createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${app.url}/trpc`, headers: () => ({ Authorization: `Bearer ${ws.apiKey}` }) })],
  });

/** YYYY-MM-DD of a day of this month (UTC), or of the month before with `monthsBack`. */
function dayOfMonth(day: number, monthsBack = 0): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - monthsBack, day))
    .toISOString()
    .slice(0, 10);
}

const money = (amount: number, currency: string) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(amount);

beforeAll(async () => {
  if (unavailable) return;
  await ensureBuilt({ log: () => {} });
  await receiver.start();
  app = await startTestApp({
    worker: true,
    env: { WEBHOOK_RETRY_SCALE: '0.001', WORKER_POLL_INTERVAL_MS: '50', WEBHOOK_TIMEOUT_MS: '2000' },
  });
  ws = await app.createWorkspace({ name: 'Northwind' });
  email = await setOwnerPassword(app, ws, OWNER_PASSWORD);
  pipeline = (await app.api(ws.apiKey, 'GET', '/api/v1/pipelines')).body.data[0];
  await seedDeals();
  await seedWebhookDeliveries();
  await seedRuns();
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await receiver.stop();
});

/** Open deals in two currencies, deals won this month and last, one lost last month. */
async function seedDeals() {
  const stage = (name: string) => pipeline.stages.find((s) => s.name === name)!.id;
  for (const [title, stageName, amount, currency, closeDate] of [
    ['Analytical Engines renewal', 'Lead', 12000, 'USD', null],
    ['Bletchley audit', 'Lead', 250, 'EUR', null],
    ['Navy training', 'Qualified', 4800, 'USD', null],
    ['Difference engine', 'Won', 1000.1, 'USD', dayOfMonth(1)],
    ['Punch cards', 'Won', 250.25, 'USD', dayOfMonth(2)],
    ['Enigma workshop', 'Won', 300, 'EUR', dayOfMonth(15, 1)],
    ['COBOL course', 'Lost', 99.99, 'USD', dayOfMonth(28, 1)],
  ] as const) {
    const res = await app.api(ws.apiKey, 'POST', '/api/v1/deals', {
      pipelineId: pipeline.id,
      stageId: stage(stageName),
      title,
      amount,
      currency,
      ...(closeDate ? { closeDate } : {}),
    });
    expect(res.status).toBe(201);
  }
}

/** Two deliveries to a loopback receiver whose first answer is a 500: three attempts, two succeeded. */
async function seedWebhookDeliveries() {
  const hook = await app.api(ws.apiKey, 'POST', '/api/v1/webhooks', {
    url: `${receiver.url}/reports-hook`,
    events: ['record.created'],
    description: 'Loopback receiver',
  });
  expect(hook.status).toBe(201);
  receiver.reply({ status: 500, body: 'try again' });
  for (const title of ['Ada Lovelace', 'Grace Hopper']) {
    await app.api(ws.apiKey, 'POST', '/api/v1/records', { folderId: ws.folderId, title });
  }
  await eventually(async () => {
    const deliveries = await app.api(ws.apiKey, 'GET', `/api/v1/webhooks/${hook.body.data.id}/deliveries`);
    const statuses = deliveries.body.data.map((d: { status: string }) => d.status);
    return statuses.length === 2 && statuses.every((s: string) => s === 'SUCCEEDED');
  }, 30_000);
}

/** Two runs of an automation started by its URL, both finished. */
async function seedRuns() {
  const workflow = await app.api(ws.apiKey, 'POST', '/api/v1/workflows', {
    name: 'Web form',
    trigger: { type: 'INCOMING_WEBHOOK' },
    actions: [{ type: 'CONDITION', left: 1, operator: 'EXISTS' }],
  });
  expect(workflow.status).toBe(201);
  const id = workflow.body.data.id as string;
  for (let i = 0; i < 2; i++) {
    const res = await fetch(`${app.url}/api/webhooks/trigger/${id}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ n: i }),
    });
    expect(res.status).toBe(200);
  }
  await eventually(async () => {
    const runs = await app.api(ws.apiKey, 'GET', `/api/v1/workflows/${id}/runs`);
    const statuses = runs.body.data.map((r: { status: string }) => r.status);
    return statuses.length === 2 && statuses.every((s: string) => s === 'SUCCEEDED');
  }, 30_000);
}

/** The cells of a report table's row whose heading is `row`, as shown. */
async function rowCells(table: Locator, row: string): Promise<string[]> {
  const tr = table.locator('tr', { has: table.page().locator('th', { hasText: row }) }).first();
  return (await tr.locator('td').allTextContents()).map((t) => t.trim());
}

function report(page: Page, id: string) {
  return page.locator(`[data-report="${id}"]`);
}

describe.skipIf(unavailable)('the Reports page in Chromium', () => {
  it('shows the numbers the reports procedures answer, in charts and their tables', async () => {
    const { page } = browser;
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    // The signed-out visit's GET /auth/session answers 401 on purpose; nothing else may fail.
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.text().includes('status of 401'))
        errors.push(message.text());
    });
    await page.goto(`${app.url}/`);
    await signIn(page, email, OWNER_PASSWORD);
    await page.getByRole('link', { name: 'Reports' }).click();
    await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
    expect(await page.locator('h1:focus').textContent()).toBe('Reports');

    // Pipeline by stage: the summary's counts and sums, per currency, as GET …/summary answers them.
    const summary = (await app.api(ws.apiKey, 'GET', `/api/v1/pipelines/${pipeline.id}/summary`)).body.data;
    const pipelineReport = (await api().pipelines.summary.query({ id: pipeline.id })).data;
    expect(pipelineReport).toEqual(summary);
    const stages = report(page, 'report-pipeline').locator('table');
    await stages.locator('tbody tr').first().waitFor();
    expect(await stages.locator('thead th').allTextContents()).toEqual([
      'Stage',
      'Deals',
      'Value (EUR)',
      'Value (USD)',
    ]);
    const shown = (totals: { currency: string; amount: number }[], currency: string) => {
      const total = totals.find((t) => t.currency === currency);
      return total ? money(total.amount, currency) : '—';
    };
    for (const stage of summary.stages as (typeof pipelineReport)['stages']) {
      expect(await rowCells(stages, stage.name)).toEqual([
        String(stage.count),
        shown(stage.totals, 'EUR'),
        shown(stage.totals, 'USD'),
      ]);
    }
    // By hand: Lead holds $12,000.00 and €250.00 apart; Won $1,000.10 + $250.25.
    expect(await rowCells(stages, 'Lead')).toEqual(['2', '€250.00', '$12,000.00']);
    expect(await rowCells(stages, 'Won')).toEqual(['3', '€300.00', '$1,250.35']);
    expect(await rowCells(stages, 'All stages')).toEqual(['7', '€550.00', '$18,150.34']);
    // One bar per stage, of one currency at a time.
    await report(page, 'report-pipeline').getByLabel('Currency').selectOption('USD');
    await expect
      .poll(() => report(page, 'report-pipeline').locator('.recharts-bar-rectangle').count())
      .toBeGreaterThan(0);

    // Won and lost per month: every month of the 12, the numbers of reports.wonLost.
    const wonLost = (await api().reports.wonLost.query({ pipelineId: pipeline.id })).data;
    expect(wonLost.months).toHaveLength(12);
    const months = report(page, 'report-won-lost').locator('table');
    expect(await months.locator('tbody tr').count()).toBe(12);
    for (const month of wonLost.months) {
      const label = (await months.locator(`time[datetime="${month.month}"]`).textContent())!;
      expect(await rowCells(months, label)).toEqual([
        String(month.won.count),
        String(month.lost.count),
        shown(month.won.totals, 'EUR'),
        shown(month.won.totals, 'USD'),
        shown(month.lost.totals, 'EUR'),
        shown(month.lost.totals, 'USD'),
      ]);
    }
    const thisMonth = wonLost.months.at(-1)!;
    const lastMonth = wonLost.months.at(-2)!;
    expect(thisMonth).toMatchObject({
      won: { count: 2, totals: [{ currency: 'USD', count: 2, amount: 1250.35 }] },
      lost: { count: 0 },
    });
    expect(lastMonth).toMatchObject({
      won: { count: 1, totals: [{ currency: 'EUR', count: 1, amount: 300 }] },
      lost: { count: 1, totals: [{ currency: 'USD', count: 1, amount: 99.99 }] },
    });

    // Webhook deliveries: three attempts (a 500, then two 2xx), two deliveries succeeded.
    const health = (await api().reports.webhookHealth.query()).data;
    const [subscription] = health.subscriptions;
    expect(subscription).toMatchObject({
      description: 'Loopback receiver',
      attemptsSucceeded: 2,
      attemptsFailed: 1,
      successRate: 66.7,
      deliveriesSucceeded: 2,
      deliveriesFailed: 0,
      deliveriesPending: 0,
    });
    const hooks = report(page, 'report-webhooks').locator('table');
    const ms = (value: number | null) => (value === null ? '—' : `${value} ms`);
    expect(await rowCells(hooks.first(), 'Loopback receiver')).toEqual([
      '2',
      '1',
      '66.7 %',
      ms(subscription!.p50Ms),
      ms(subscription!.p95Ms),
      '2',
      '0',
      '0',
    ]);
    const today = subscription!.days.at(-1)!;
    const perDay = hooks.nth(1);
    expect(await perDay.locator('tbody tr').count()).toBe(7);
    const todayLabel = (await perDay.locator(`time[datetime="${today.day}"]`).textContent())!;
    expect(await rowCells(perDay, todayLabel)).toEqual([
      String(today.attemptsSucceeded),
      String(today.attemptsFailed),
      today.successRate === null ? '—' : `${today.successRate} %`,
      ms(today.p50Ms),
      ms(today.p95Ms),
      String(today.deliveriesSucceeded),
      String(today.deliveriesFailed),
      String(today.deliveriesPending),
    ]);

    // Automation runs: 14 days, today's two runs succeeded.
    const runs = (await api().reports.automationRuns.query()).data;
    expect(runs.totals).toEqual({
      queued: 0,
      running: 0,
      waiting: 0,
      succeeded: 2,
      failed: 0,
      cancelled: 0,
      total: 2,
    });
    const perStatus = report(page, 'report-runs').locator('table');
    expect(await perStatus.locator('tbody tr').count()).toBe(14);
    const runDay = runs.days.at(-1)!;
    const runLabel = (await perStatus.locator(`time[datetime="${runDay.day}"]`).textContent())!;
    // Succeeded, Failed, Cancelled, Waiting, Running, Queued, All.
    expect(await rowCells(perStatus, runLabel)).toEqual(['2', '0', '0', '0', '0', '0', '2']);
    expect(await rowCells(perStatus, '14 days')).toEqual(['2', '0', '0', '0', '0', '0', '2']);

    // The charts are drawn, hidden from assistive technology, which reads the tables.
    expect(
      await page.locator('.chart[aria-hidden="true"] .recharts-wrapper > svg.recharts-surface').count(),
    ).toBe(7);
    expect(await page.locator('[role="alert"], [aria-live]').count()).toBe(1);
    expect(errors).toEqual([]);
    await browser.screenshot('reports');
  });

  it('shows a member the deal reports only; the server refuses them webhook and automation health', async () => {
    const { page } = browser;
    const session = await (await page.request.get(`${app.url}/auth/session`)).json();
    const memberEmail = `member.${Date.now()}@example.com`;
    const invited = await page.request.post(`${app.url}/trpc/invitations.create`, {
      headers: { 'X-CSRF-Token': session.data.csrfToken },
      data: { email: memberEmail, role: 'MEMBER' },
    });
    expect(invited.status()).toBe(200);
    const invitation = (await invited.json()).result.data.data as { token: string };
    const accepted = await fetch(`${app.url}/auth/accept-invitation`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token: invitation.token, name: 'Mia', password: OWNER_PASSWORD }),
    });
    expect(accepted.status).toBe(200);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await signIn(page, memberEmail, OWNER_PASSWORD);
    await page.getByRole('link', { name: 'Reports' }).click();
    await report(page, 'report-won-lost').locator('table').waitFor();
    await report(page, 'report-pipeline').locator('table').waitFor();
    expect(await report(page, 'report-webhooks').count()).toBe(0);
    expect(await report(page, 'report-runs').count()).toBe(0);

    const memberSession = await (await page.request.get(`${app.url}/auth/session`)).json();
    for (const procedure of ['reports.webhookHealth', 'reports.automationRuns']) {
      const refused = await page.request.get(`${app.url}/trpc/${procedure}`, {
        headers: { 'X-CSRF-Token': memberSession.data.csrfToken },
      });
      expect(refused.status()).toBe(403);
    }
    const allowed = await page.request.get(
      `${app.url}/trpc/reports.wonLost?input=${encodeURIComponent(JSON.stringify({ pipelineId: pipeline.id }))}`,
      { headers: { 'X-CSRF-Token': memberSession.data.csrfToken } },
    );
    expect(allowed.status()).toBe(200);
  });

  it('says so when a pipeline has no deals and no stage named Won or Lost', async () => {
    const created = await app.api(ws.apiKey, 'POST', '/api/v1/pipelines', {
      name: 'Partners',
      stages: ['Talking', 'Signed'],
    });
    expect(created.status).toBe(201);
    const { page } = browser;
    await page.reload();
    await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
    await page.getByLabel('Pipeline', { exact: true }).selectOption({ label: 'Partners' });
    await report(page, 'report-pipeline').getByText('No deals in this pipeline yet.').waitFor();
    await report(page, 'report-won-lost')
      .getByText('This pipeline has no stage named Won or Lost.')
      .waitFor();
    expect(await page.locator('.chart').count()).toBe(0);
  });

  it('refuses a pipeline of another workspace', async () => {
    const other = await app.createWorkspace({ name: 'Elsewhere' });
    const theirs = (await app.api(other.apiKey, 'GET', '/api/v1/pipelines')).body.data[0];
    const refused = await api()
      .reports.wonLost.query({ pipelineId: theirs.id })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(refused).toBeInstanceOf(TRPCClientError);
    expect((refused as TRPCClientError<AppRouter>).data?.httpStatus).toBe(404);
  });
});

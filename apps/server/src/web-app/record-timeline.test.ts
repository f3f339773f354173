import { ensureBuilt } from '@crm/web/build';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, browserUnavailable, signedInBrowser } from '../testing/browser.ts';
import { eventually } from '../testing/receiver.ts';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';

const unavailable = browserUnavailable();
if (unavailable) console.warn(`The browser tests (record-timeline.test.ts) are skipped: ${unavailable}.`);

let app: TestApp;
let ws: TestWorkspace;
let browser: Browser;
let recordId: string;

beforeAll(async () => {
  if (unavailable) return;
  await ensureBuilt({ log: () => {} });
  // The worker runs, so a change made on the page starts the automation that listens to it.
  app = await startTestApp({ worker: true, env: { WORKER_POLL_INTERVAL_MS: '50' } });
  ws = await app.createWorkspace({ name: 'Curie Labs' });
  const record = await app.api(ws.apiKey, 'POST', '/api/v1/records', {
    folderId: ws.folderId,
    title: 'Marie Curie',
    email: 'marie@sorbonne.example',
    data: { company: 'Sorbonne', lifecycle: 'Lead' },
  });
  expect(record.status).toBe(201);
  recordId = record.body.data.id;
  // A deal of the record, moved on: its stage move is part of the record's history.
  const pipeline = (await app.api(ws.apiKey, 'GET', '/api/v1/pipelines')).body.data[0];
  const deal = await app.api(ws.apiKey, 'POST', '/api/v1/deals', {
    pipelineId: pipeline.id,
    title: 'Radium supply',
    amount: 12000,
    recordId,
  });
  expect(deal.status).toBe(201);
  const moved = await app.api(ws.apiKey, 'PATCH', `/api/v1/deals/${deal.body.data.id}`, {
    stageId: pipeline.stages[1].id,
  });
  expect(moved.status).toBe(200);
  // An automation that updates the record whenever a record changes (docs/workflows.md). Its
  // own change starts no workflow, so it runs once per change made on the page.
  const workflow = await app.api(ws.apiKey, 'POST', '/api/v1/workflows', {
    name: 'Promote to customer',
    trigger: { type: 'record.updated' },
    actions: [{ type: 'UPDATE_RECORD', data: { lifecycle: 'Customer' } }],
  });
  expect(workflow.status).toBe(201);
  browser = await signedInBrowser(app, ws);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const entries = (page: Page) =>
  page.getByRole('list', { name: 'Timeline, newest first' }).getByRole('listitem');

async function texts(list: Locator): Promise<string[]> {
  return (await list.allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
}

describe.skipIf(unavailable)("a record's timeline in Chromium", () => {
  it('shows the history and refreshes after a comment, a call and a task are added', async () => {
    const { page } = browser;
    await page.getByRole('link', { name: 'Marie Curie' }).click();
    await page.getByRole('heading', { name: 'Timeline' }).waitFor();
    await entries(page).filter({ hasText: 'Record created' }).waitFor();
    expect(await texts(entries(page))).toEqual([
      expect.stringContaining('Deal “Radium supply”: stage moved from Lead to Qualified'),
      expect.stringContaining('Record created'),
    ]);

    await page.getByRole('textbox', { name: 'Comment' }).fill('Sent samples for analysis');
    await page.getByRole('button', { name: 'Add comment' }).click();
    await entries(page).filter({ hasText: 'commented' }).filter({ hasText: 'Sent samples' }).waitFor();
    await page.getByRole('textbox', { name: 'Notes' }).fill('Wants a quote');
    await page.getByRole('button', { name: 'Log call' }).click();
    await entries(page).filter({ hasText: 'logged an outbound call: connected' }).waitFor();
    await page.getByRole('textbox', { name: 'Task' }).fill('Prepare the quote');
    await page.getByRole('button', { name: 'Add task' }).click();
    await entries(page).filter({ hasText: 'Task “Prepare the quote” created' }).waitFor();
    expect((await texts(entries(page)))[0]).toContain('Task “Prepare the quote” created');
  });

  it('shows the automation run that a change on the page started, and what it changed', async () => {
    const { page } = browser;
    await page.getByLabel('Email', { exact: true }).fill('marie@radium.example');
    await page.getByRole('button', { name: 'Save fields' }).click();
    await entries(page)
      .filter({ hasText: 'Email changed from marie@sorbonne.example to marie@radium.example' })
      .waitFor();
    // The run is queued by the worker once the change is committed; the page is told by Refresh.
    await eventually(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      return (
        (await entries(page).filter({ hasText: 'Automation “Promote to customer” ran: succeeded' }).count()) >
        0
      );
    });
    await entries(page).filter({ hasText: 'Lifecycle changed from Lead to Customer' }).waitFor();
    // Refresh read the record again too: the form shows what the automation wrote.
    await expect.poll(() => page.getByLabel('Lifecycle', { exact: true }).inputValue()).toBe('Customer');
    const shown = await texts(entries(page));
    expect(shown.slice(0, 3)).toEqual([
      expect.stringContaining('Lifecycle changed from Lead to Customer'),
      expect.stringContaining('Automation “Promote to customer” ran: succeeded'),
      expect.stringContaining('Email changed from marie@sorbonne.example to marie@radium.example'),
    ]);
    // The page says what the API says.
    const api = await app.api(ws.apiKey, 'GET', `/api/v1/records/${recordId}/timeline`);
    expect(api.body.data.map((e: { kind: string }) => e.kind)).toEqual([
      'record.updated',
      'workflow.run',
      'record.updated',
      'task.created',
      'call.logged',
      'comment.added',
      'deal.stage_changed',
      'record.created',
    ]);
    expect(shown).toHaveLength(8);
    await page.getByRole('heading', { name: 'Timeline' }).scrollIntoViewIfNeeded();
    await browser.screenshot('record-timeline');
  });

  it('names who made each change and how, and reverts one from the field history', async () => {
    const { page } = browser;
    // The timeline says who made each change: the automation's run, the owner in the web app.
    const byRun = entries(page).filter({ hasText: 'Lifecycle changed from Lead to Customer' });
    await expect
      .poll(async () => texts(byRun))
      .toEqual([expect.stringContaining('by Promote to customer (automation run, automation)')]);
    const byOwner = entries(page).filter({ hasText: 'Email changed from' });
    expect((await texts(byOwner))[0]).toContain('(web app)');

    const history = page.getByRole('list', { name: 'Field history, newest first' }).getByRole('listitem');
    const emailChange = history.filter({
      hasText: 'Email changed from marie@sorbonne.example to marie@radium.example',
    });
    await emailChange.waitFor();
    expect((await texts(emailChange))[0]).toContain('(web app)');
    await page.getByRole('heading', { name: 'Field history' }).scrollIntoViewIfNeeded();
    await browser.screenshot('record-history');

    // Reverting the email: a new change, by the owner, and the form shows the old address.
    await emailChange.getByRole('button', { name: 'Revert: set Email back' }).click();
    await history
      .filter({ hasText: 'Email changed from marie@radium.example to marie@sorbonne.example' })
      .waitFor();
    await expect
      .poll(() => page.getByLabel('Email', { exact: true }).inputValue())
      .toBe('marie@sorbonne.example');
    const api = await app.api(ws.apiKey, 'GET', `/api/v1/records/${recordId}/history?field=email`);
    expect(api.body.data[0]).toMatchObject({
      from: 'marie@radium.example',
      to: 'marie@sorbonne.example',
      actor: { type: 'user' },
      source: 'web',
    });

    // The lifecycle changed twice since the first entry: the page asks before setting it back.
    page.once('dialog', (dialog) => dialog.accept());
    const first = history.filter({ hasText: 'Lifecycle changed from Lead to Customer' });
    await first.getByRole('button', { name: 'Revert: set Lifecycle back' }).click();
    await history.filter({ hasText: 'Lifecycle changed from Customer to Lead' }).waitFor();
  });

  it('lists sign-ins, key and field changes in the audit log', async () => {
    const { page } = browser;
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    const rows = page.getByRole('table', { name: 'Audit log, newest first' }).getByRole('row');
    await rows.filter({ hasText: 'user.signed_in' }).first().waitFor();
    await page.getByLabel('Action').selectOption('workflow.created');
    await rows.filter({ hasText: 'workflow.created' }).waitFor();
    expect(await rows.filter({ hasText: 'user.signed_in' }).count()).toBe(0);
    await page.getByLabel('Action').selectOption('');
    await rows.filter({ hasText: 'user.signed_in' }).first().waitFor();
    // The revert of the test before has left the status line.
    await browser.screenshot('audit-log');
  });
});

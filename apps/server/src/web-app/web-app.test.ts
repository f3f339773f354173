import { ensureBuilt } from '@crm/web/build';
import { verify } from '@octokit/webhooks-methods';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Browser,
  browserUnavailable,
  launchBrowser,
  OWNER_PASSWORD,
  setOwnerPassword,
} from '../testing/browser.ts';
import { eventually, Receiver } from '../testing/receiver.ts';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';

const unavailable = browserUnavailable();
if (unavailable) console.warn(`The browser tests (web-app.test.ts) are skipped: ${unavailable}.`);

let app: TestApp;
let ws: TestWorkspace;
let email: string;
let browser: Browser;
const receiver = new Receiver();

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
  await seed();
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await receiver.stop();
});

/** A few records, deals and tasks, so the pages show what they are for. */
async function seed() {
  for (const [title, mail, company] of [
    ['Ada Lovelace', 'ada@analytical.example', 'Analytical Engines'],
    ['Grace Hopper', 'grace@cobol.example', 'Navy'],
    ['Alan Turing', 'alan@bletchley.example', 'Bletchley'],
  ]) {
    const res = await app.api(ws.apiKey, 'POST', '/api/v1/records', {
      folderId: ws.folderId,
      title,
      email: mail,
      data: { company, lifecycle: 'Lead' },
    });
    expect(res.status).toBe(201);
  }
}

async function sales() {
  const res = await app.api(ws.apiKey, 'GET', '/api/v1/pipelines');
  return res.body.data[0] as { id: string; stages: { id: string; name: string }[] };
}

describe.skipIf(unavailable)('the web app in Chromium', () => {
  it('serves the production build of the app', async () => {
    const html = await (await fetch(`${app.url}/`, { headers: { Accept: 'text/html' } })).text();
    const script = /<script type="module" crossorigin src="([^"]+)"/.exec(html)?.[1];
    expect(script).toMatch(/^\/assets\/index-[\w-]+\.js$/);
    const js = await fetch(`${app.url}${script}`);
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // React's production build, not the development one a test runner's NODE_ENV would give.
    expect(await js.text()).toContain('Minified React error');
  });

  it('signs the owner in with email and password', async () => {
    const { page } = browser;
    await page.goto(`${app.url}/`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('wrong password here');
    await page.getByRole('button', { name: 'Sign in' }).click();
    // The page shows the problem; the app's one polite live region says it.
    await expectText(page.locator('.problem'), 'Wrong email or password');
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Wrong email or password');
    expect(await page.locator('[role="alert"], [aria-live]').count()).toBe(1);
    await browser.screenshot('sign-in', page, { withStatus: true });
    await page.getByLabel('Password').fill(OWNER_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Records' }).waitFor();
    await page.getByRole('link', { name: 'Grace Hopper' }).waitFor();
    const cookies = await browser.context.cookies(app.url);
    expect(cookies.find((c) => c.name === 'crm_session')).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    await browser.screenshot('records');
  });

  it('searches records and adds a comment, a call and a task on a record page', async () => {
    const { page } = browser;
    await page.getByLabel('Search').fill('grace');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: 'Ada Lovelace' }).waitFor({ state: 'detached' });
    await page.getByRole('link', { name: 'Grace Hopper' }).click();
    await page.getByRole('heading', { name: 'Grace Hopper' }).waitFor();
    await page.getByRole('textbox', { name: 'Comment' }).fill('Asked for a demo next week');
    await page.getByRole('button', { name: 'Add comment' }).click();
    // Scoped to its section: the record's timeline says it too.
    await page.getByRole('region', { name: 'Comments' }).getByText('Asked for a demo next week').waitFor();
    await page.getByRole('textbox', { name: 'Notes' }).fill('Talked about pricing');
    await page.getByRole('button', { name: 'Log call' }).click();
    await page.getByRole('region', { name: 'Calls' }).getByText('Talked about pricing').waitFor();
    await page.getByRole('textbox', { name: 'Task' }).fill('Send the proposal');
    await page.getByRole('button', { name: 'Add task' }).click();
    await page.getByRole('region', { name: 'Tasks' }).getByText('Send the proposal').waitFor();
    // An invalid value is shown next to its field, and nothing is saved.
    await page.getByLabel('Email', { exact: true }).fill('not-an-address');
    await page.getByRole('button', { name: 'Save fields' }).click();
    await expectText(page.locator('.field-error').first(), /email|address/i);
    await browser.screenshot('record');
    const recordId = page.url().split('/').pop()!;
    const record = await app.api(ws.apiKey, 'GET', `/api/v1/records/${recordId}`);
    expect(record.body.data.email).toBe('grace@cobol.example');
    const comments = await app.api(ws.apiKey, 'GET', `/api/v1/records/${recordId}/comments`);
    expect(comments.body.data.map((c: { text: string }) => c.text)).toEqual(['Asked for a demo next week']);
    const tasks = await app.api(ws.apiKey, 'GET', `/api/v1/tasks?recordId=${recordId}`);
    expect(tasks.body.data).toMatchObject([
      { title: 'Send the proposal', assigneeId: ws.userId, status: 'OPEN' },
    ]);
  });

  it('lists my tasks and completes one', async () => {
    const { page } = browser;
    await page.getByRole('link', { name: 'Tasks' }).click();
    await page.getByRole('tab', { name: 'Mine' }).waitFor();
    await page.getByLabel('Send the proposal').check();
    await page.getByRole('tab', { name: 'Done' }).click();
    await page.getByLabel('Send the proposal').waitFor();
    expect(await page.getByLabel('Send the proposal').isChecked()).toBe(true);
    await page.getByRole('tab', { name: 'Mine' }).click();
    await page.getByText('No tasks here.').waitFor();
    await browser.screenshot('tasks');
  });

  it('creates an API key whose secret is shown once and works against the REST API', async () => {
    const { page } = browser;
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await page.getByRole('button', { name: 'Create key' }).click();
    await expectText(page.locator('.field-error').first(), /.+/);
    await page.getByLabel('Name').fill('Reporting');
    await page.getByLabel('Read only').check();
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.getByTestId('secret').textContent())!.trim();
    expect(secret).toMatch(/^crm_[0-9A-Za-z]{43}$/);
    // The refusal of the empty name has left the status line.
    await browser.screenshot('api-keys');

    const me = await app.api(secret, 'GET', '/api/v1/me');
    expect(me.status).toBe(200);
    expect(me.body.data.key).toMatchObject({ name: 'Reporting', scopes: ['read'] });
    const write = await app.api(secret, 'POST', '/api/v1/records', { folderId: ws.folderId, title: 'No' });
    expect(write.status).toBe(403);

    await page.getByRole('button', { name: 'I have stored it' }).click();
    await page.getByTestId('secret').waitFor({ state: 'detached' });
    expect(await page.content()).not.toContain(secret);
    page.once('dialog', (dialog) => dialog.accept());
    await page.getByRole('button', { name: 'Revoke Reporting' }).click();
    await page.getByText(/^revoked/).waitFor();
    expect((await app.api(secret, 'GET', '/api/v1/me')).status).toBe(401);

    // A least-privilege key: chosen scopes, one folder (docs/api.md, "Scopes").
    await page.getByLabel('Name').fill('Deals sync');
    await page.getByLabel('Choose, resource by resource').check();
    await page.getByRole('checkbox', { name: 'deals:write' }).check();
    await page.getByRole('checkbox', { name: 'workflows:write' }).check();
    await page.getByLabel('Only these folders').check();
    await page.locator('.folder-choices').getByLabel('People').check();
    // A key limited to folders cannot hold what reaches every folder: offered no more.
    for (const scope of ['webhooks:write', 'workflows:read', 'workflows:write']) {
      const box = page.getByRole('checkbox', { name: scope });
      expect(await box.isDisabled(), scope).toBe(true);
      expect(await box.isChecked(), scope).toBe(false);
    }
    expect(await page.locator('#scopes-hint').textContent()).toContain(
      'A key limited to folders never holds webhooks:write, workflows:read, workflows:write',
    );
    await browser.screenshot('api-key-scopes');
    await page.getByRole('button', { name: 'Create key' }).click();
    const scoped = (await page.getByTestId('secret').textContent())!.trim();
    const scopedMe = await app.api(scoped, 'GET', '/api/v1/me');
    expect(scopedMe.body.data.key).toMatchObject({
      name: 'Deals sync',
      scopes: ['deals:write', 'records:read'],
      folderIds: [ws.folderId],
    });
    const refused = await app.api(scoped, 'GET', '/api/v1/deals?pipelineId=pl_x');
    expect(refused.status).toBe(403);
    expect(refused.body.error.details).toEqual([{ path: 'scope', message: 'needs deals:read' }]);
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await page.getByText('only People').waitFor();
  });

  it('registers a webhook, sends a test event to a loopback receiver and shows the delivery', async () => {
    const { page } = browser;
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    await page.getByLabel('URL').fill(`${receiver.url}/crm-hook`);
    await page.getByLabel('Description (optional)').fill('Loopback receiver');
    await page.getByRole('checkbox', { name: 'deal.stage_changed' }).check();
    await page.getByRole('button', { name: 'Register webhook' }).click();
    const secret = (await page.getByTestId('secret').textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await page.getByRole('button', { name: 'Send test event' }).click();
    const [request] = await receiver.waitFor(1, 15_000, '/crm-hook');
    expect(
      await verify(secret, request!.body.toString('utf8'), request!.headers['x-service-signature'] as string),
    ).toBe(true);
    await eventually(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      return (await page.getByTestId('delivery').getByText('SUCCEEDED').count()) > 0;
    });
    await page.getByTestId('delivery').first().locator('summary').click();
    await page.getByRole('cell', { name: '200', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Redeliver' }).click();
    await receiver.waitFor(2, 15_000, '/crm-hook');
    await eventually(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      return (await page.getByTestId('delivery').getByText('SUCCEEDED').count()) === 2;
    });
    await page.getByTestId('delivery').first().locator('summary').click();
    await browser.screenshot('webhook');

    // A subscription the service disabled shows why, and can be enabled again.
    const reason = 'No successful delivery for 5 days';
    await app.service.pool.query(
      `update webhooks set enabled = false, disabled_reason = $2 where workspace_id = $1`,
      [ws.workspaceId, reason],
    );
    await page.reload();
    await page.getByText(reason).waitFor();
    await page.getByRole('button', { name: 'Enable again' }).click();
    await page.getByRole('button', { name: 'Disable' }).waitFor();
    expect(await page.getByText(reason).count()).toBe(0);
    const hooks = await app.api(ws.apiKey, 'GET', '/api/v1/webhooks');
    expect(hooks.body.data).toMatchObject([{ enabled: true, disabledReason: null }]);
  });

  it('moves a deal on the board, which changes its stage and fires deal.stage_changed', async () => {
    const pipeline = await sales();
    const lead = pipeline.stages.find((s) => s.name === 'Lead')!;
    const qualified = pipeline.stages.find((s) => s.name === 'Qualified')!;
    for (const [title, amount] of [
      ['Analytical Engines renewal', 12000],
      ['Navy training', 4800],
    ] as const) {
      await app.api(ws.apiKey, 'POST', '/api/v1/deals', {
        pipelineId: pipeline.id,
        stageId: lead.id,
        title,
        amount,
      });
    }
    // Another currency in the same stage: its sum is shown apart, never added to the dollars.
    await app.api(ws.apiKey, 'POST', '/api/v1/deals', {
      pipelineId: pipeline.id,
      stageId: lead.id,
      title: 'Bletchley audit',
      amount: 250,
      currency: 'EUR',
    });
    const before = receiver.requests.length;
    const { page } = browser;
    await page.getByRole('link', { name: 'Pipeline' }).click();
    await page
      .getByRole('region', { name: 'Stage Lead' })
      .getByText('Navy training', { exact: true })
      .waitFor();
    // A navigation puts the focus on the new page's heading.
    expect(await page.locator('h1:focus').textContent()).toBe('Pipeline');
    await page.getByLabel('Move “Navy training” to').selectOption({ label: 'Qualified' });
    await expect
      .poll(() => page.getByRole('status').textContent())
      .toBe('Moved “Navy training” to Qualified.');
    expect(await page.locator('[role="alert"], [aria-live]').count()).toBe(1);
    await page
      .getByRole('region', { name: 'Stage Qualified' })
      .getByText('Navy training', { exact: true })
      .waitFor();
    // The column totals are the server's, per currency, and follow the move.
    const totals = (stage: string) =>
      page.getByRole('region', { name: `Stage ${stage}` }).locator('.stage-totals');
    await expect.poll(() => totals('Qualified').textContent()).toBe('$4,800.00');
    await expect.poll(() => totals('Lead').textContent()).toBe('€250.00 · $12,000.00');
    const summary = await app.api(ws.apiKey, 'GET', `/api/v1/pipelines/${pipeline.id}/summary`);
    expect(summary.body.data.stages.find((s: { name: string }) => s.name === 'Lead').totals).toEqual([
      { currency: 'EUR', count: 1, amount: 250 },
      { currency: 'USD', count: 1, amount: 12000 },
    ]);
    await browser.screenshot('pipeline');

    const deals = await app.api(ws.apiKey, 'GET', `/api/v1/deals?pipelineId=${pipeline.id}`);
    const moved = deals.body.data.find((d: { title: string }) => d.title === 'Navy training');
    expect(moved.stageId).toBe(qualified.id);
    // The event is written with the change (the feed at /api/v1/events lists it once settled).
    const events = await app.service.pool.query<{ payload: Record<string, unknown> }>(
      `select payload from events where workspace_id = $1 and type = 'deal.stage_changed'`,
      [ws.workspaceId],
    );
    expect(events.rows.map((r) => r.payload)).toEqual([
      expect.objectContaining({ dealId: moved.id, fromStageId: lead.id, toStageId: qualified.id }),
    ]);
    // The webhook registered above subscribed to it: the same event reaches the receiver.
    const [delivered] = (await receiver.waitFor(before + 1, 15_000, '/crm-hook')).slice(before);
    expect(JSON.parse(delivered!.body.toString('utf8'))).toMatchObject({
      event: 'deal.stage_changed',
      dealId: moved.id,
      toStageId: qualified.id,
    });
  });

  it('shows a move on the board before the server answers and takes it back when the server refuses it', async () => {
    const { page } = browser;
    const lead = page.getByRole('region', { name: 'Stage Lead' });
    const won = page.getByRole('region', { name: 'Stage Won' });
    await lead.getByText('Analytical Engines renewal', { exact: true }).waitFor();
    // Someone else deletes the deal while the board still shows it.
    const pipeline = await sales();
    const listed = await app.api(ws.apiKey, 'GET', `/api/v1/deals?pipelineId=${pipeline.id}`);
    const gone = listed.body.data.find((d: { title: string }) => d.title === 'Analytical Engines renewal');
    expect((await app.api(ws.apiKey, 'DELETE', `/api/v1/deals/${gone.id}`)).status).toBe(200);
    // The move is held back for a moment on its way to the server, so the board is seen before the answer.
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/trpc/deals.update**', async (route) => {
      await held;
      await route.continue();
    });
    try {
      await page.getByLabel('Move “Analytical Engines renewal” to').selectOption({ label: 'Won' });
      await won.getByText('Analytical Engines renewal', { exact: true }).waitFor();
      expect(await lead.getByText('Analytical Engines renewal', { exact: true }).count()).toBe(0);
      expect(await won.locator('.stage-totals').textContent()).toBe('$12,000.00');
      release();
      await expect
        .poll(() => page.getByRole('status').textContent())
        .toBe(`The deal could not be moved: Deal ${gone.id} not found. It is back where it was.`);
    } finally {
      release();
      await page.unroute('**/trpc/deals.update**');
    }
    // Then the board is read again: the deleted deal is on no column, and the totals are the server's.
    await expect.poll(() => won.getByText('Analytical Engines renewal', { exact: true }).count()).toBe(0);
    await expect.poll(() => lead.getByText('Analytical Engines renewal', { exact: true }).count()).toBe(0);
    await expect.poll(() => lead.locator('.stage-totals').textContent()).toBe('€250.00');
    // The message stays on the page after the status line has cleared.
    expect(await page.locator('.problem').textContent()).toContain(`Deal ${gone.id} not found`);
  });

  it('shows why the board is empty instead of loading for ever: a failed read, or no pipelines', async () => {
    const { page } = browser;
    const route = '**/trpc/pipelines.list**';
    // The read is refused (a 4xx, which is not retried): the problem shows, and no "Loading".
    await page.route(route, (request) =>
      request.fulfill({
        status: 403,
        contentType: 'application/json',
        body: JSON.stringify({
          error: {
            message: 'Forbidden',
            code: -32003,
            data: {
              code: 'FORBIDDEN',
              httpStatus: 403,
              error: { message: 'The pipelines are not yours to read' },
            },
          },
        }),
      }),
    );
    try {
      await page.reload();
      await page.locator('.problem').getByText('The pipelines are not yours to read').waitFor();
      expect(await page.getByText('Loading the board').count()).toBe(0);
      // A workspace without pipelines says so and how to make one.
      await page.unroute(route);
      await page.route(route, async (request) => {
        const answer = await request.fetch();
        const body = await answer.json();
        body.result.data.data = [];
        await request.fulfill({ response: answer, json: body });
      });
      await page.reload();
      await page.getByText('No pipelines yet. A pipeline is made through the API').waitFor();
      expect(await page.getByText('Loading the board').count()).toBe(0);
    } finally {
      await page.unroute(route);
    }
    await page.reload();
    await page.getByRole('region', { name: 'Stage Lead' }).waitFor();
  });

  it('creates an automation with the incoming-webhook trigger, runs it by URL and shows the run', async () => {
    const { page } = browser;
    await page.getByRole('link', { name: 'Automations' }).click();
    await page.getByRole('button', { name: 'New automation' }).click();
    // Saving with nothing filled in names the problems next to the fields.
    await page.getByRole('button', { name: 'Create automation' }).click();
    await expectText(page.locator('.field-error').first(), /.+/);
    await expectText(page.locator('form .problem p'), /^Not saved: \d+ values need correcting/);
    await page.getByLabel('Name').fill('Web form lead');
    await page.getByLabel('Trigger').selectOption('INCOMING_WEBHOOK');
    await page.getByLabel('Folder').selectOption({ label: 'People' });
    await page.getByLabel('Title').fill('{{ trigger.body.name }}');
    await page.getByLabel('Email (optional)').fill('{{ trigger.body.email }}');
    await page.getByLabel('Update the record with the same email instead of adding one').check();
    await page.getByRole('button', { name: 'Add an action' }).click();
    await page.getByLabel('Step 2: action').selectOption('ADD_COMMENT');
    await page.getByLabel('Comment').fill('Lead says: {{ trigger.body.message }}');
    await page.getByRole('button', { name: 'Create automation' }).click();
    const url = (await page.getByTestId('trigger-url').textContent())!.trim();
    expect(url).toMatch(new RegExp(`^${app.url}/api/webhooks/trigger/wf_[0-9a-z]{26}$`));

    const res = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Linus Pauling', email: 'linus@example.com', message: 'Call me' }),
    });
    expect(res.status).toBe(200);
    const accepted = (await res.json()) as { ok: boolean; workflowId: string; runId: string };
    expect(accepted).toMatchObject({ ok: true, workflowId: url.split('/').pop() });
    await eventually(async () => {
      await page.getByRole('button', { name: 'Refresh runs' }).click();
      return (await runStatuses(page)).includes('SUCCEEDED');
    });
    await page.getByTestId('run').first().locator('summary').click();
    await page.getByText('Lead says: Call me').first().waitFor();
    await browser.screenshot('automation');

    const records = await app.api(ws.apiKey, 'GET', '/api/v1/records?search=linus@example.com');
    expect(records.body.data).toMatchObject([{ title: 'Linus Pauling', email: 'linus@example.com' }]);
    const comments = await app.api(ws.apiKey, 'GET', `/api/v1/records/${records.body.data[0].id}/comments`);
    expect(comments.body.data.map((c: { text: string }) => c.text)).toEqual(['Lead says: Call me']);

    // Re-running the finished run queues a second one with the same input.
    await page.getByRole('button', { name: 'Re-run' }).click();
    await eventually(async () => {
      await page.getByRole('button', { name: 'Refresh runs' }).click();
      return (await runStatuses(page)).join() === 'SUCCEEDED,SUCCEEDED';
    });
    const runs = await app.api(ws.apiKey, 'GET', `/api/v1/workflows/${accepted.workflowId}/runs`);
    expect(runs.body.data.map((r: { rerunOf: string | null }) => r.rerunOf)).toEqual([accepted.runId, null]);
    // The upsert by email kept one record.
    const again = await app.api(ws.apiKey, 'GET', '/api/v1/records?search=linus@example.com');
    expect(again.body.data).toHaveLength(1);

    await page.getByRole('button', { name: 'Disable' }).click();
    await page.getByRole('button', { name: 'Enable' }).waitFor();
    const disabled = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(disabled.status).toBe(404);
  });

  it('invites a member from the settings', async () => {
    const { page } = browser;
    await page.getByRole('link', { name: 'Members' }).click();
    await page.getByLabel('Email').fill(`new.colleague.${Date.now()}@example.com`);
    await page.getByLabel('Role').selectOption('ADMIN');
    await page.getByRole('button', { name: 'Create invitation link' }).click();
    const link = await page.locator('code.secret-value').textContent();
    expect(link).toMatch(/\/accept-invitation#inv_[\w-]+$/);
    await page.getByRole('cell', { name: 'PENDING' }).waitFor();
    await browser.screenshot('members');
  });

  it('signs out', async () => {
    const { page } = browser;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    const res = await page.request.get(`${app.url}/auth/session`);
    expect(res.status()).toBe(401);
  });
});

/** The status badge of each run listed, newest first. */
async function runStatuses(page: import('playwright-core').Page): Promise<string[]> {
  return page.getByTestId('run').locator('summary .badge').allTextContents();
}

async function expectText(locator: import('playwright-core').Locator, text: string | RegExp) {
  await locator.waitFor();
  const content = (await locator.textContent()) ?? '';
  if (typeof text === 'string') expect(content).toContain(text);
  else expect(content).toMatch(text);
}

import { ensureBuilt } from '@crm/web/build';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, browserUnavailable, signedInBrowser } from '../testing/browser.ts';
import { eventually } from '../testing/receiver.ts';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';

const unavailable = browserUnavailable();
if (unavailable) console.warn(`The browser tests (automation-builder.test.ts) are skipped: ${unavailable}.`);

let app: TestApp;
let ws: TestWorkspace;
let browser: Browser;

beforeAll(async () => {
  if (unavailable) return;
  await ensureBuilt({ log: () => {} });
  // The worker runs in the app's process, so a triggered run goes on by itself.
  app = await startTestApp({ worker: true, env: { WORKER_POLL_INTERVAL_MS: '50' } });
  ws = await app.createWorkspace({ name: 'Northwind', rateLimitPerMinute: 10_000 });
  browser = await signedInBrowser(app, ws);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

/** The builder's box of one step or one condition, by its exact name ("Step 1 › Then 1"). */
const group = (within: Page | Locator, name: string) => within.getByRole('group', { name, exact: true });

/** The source the CODE step is given, and what its test run on the sample answers. */
const SOURCE =
  'const lines = input.trigger.body.lines;\nreturn { count: lines.length, skus: lines.map((l) => l.sku) };';
const SAMPLE = JSON.stringify({ trigger: { body: { lines: [{ sku: 'A-1' }, { sku: 'B-2' }] } } });

describe.skipIf(unavailable)('the automation builder and the run view in Chromium', () => {
  // 60 s: its two screenshots each wait for the status line to clear (8 s a message).
  it('builds a branch, a delay, a loop and a code step tested in place, and saves their nested shape', async () => {
    const { page } = browser;
    await page.goto(`${app.url}/settings/automations`);
    await page.getByRole('button', { name: 'New automation' }).click();
    const form = page.getByRole('form', { name: 'New automation' });
    await form.getByLabel('Name', { exact: true }).fill('Order intake');
    await form.getByLabel('Trigger').selectOption('INCOMING_WEBHOOK');

    // Step 1: a branch on "total > 100 and not country = DE".
    await form.getByLabel('Step 1: action').selectOption('BRANCH');
    await group(form, 'Step 1 › if').getByLabel('Condition').first().selectOption('all');
    const first = group(form, 'Step 1 › if › 1');
    await first.getByLabel('Value').fill('{{ trigger.body.total }}');
    await first.getByLabel('Operator').selectOption('GREATER_THAN');
    await first.getByLabel('Compared with').fill('100');
    await form.getByRole('button', { name: 'Add a comparison to Step 1 › if', exact: true }).click();
    await group(form, 'Step 1 › if › 2').getByLabel('Condition').first().selectOption('not');
    const negated = group(form, 'Step 1 › if › 2 › not');
    await negated.getByLabel('Value').fill('{{ trigger.body.country }}');
    await negated.getByLabel('Compared with').fill('DE');
    // Its arms are lists of their own; the comment of "Then" is left empty for now.
    await form.getByRole('button', { name: 'Add an action to Step 1 › Then', exact: true }).click();
    await group(form, 'Step 1 › Then 1').getByLabel('Step 1 › Then 1: action').selectOption('ADD_COMMENT');
    await form.getByRole('button', { name: 'Add an action to Step 1 › Else', exact: true }).click();
    const otherwise = group(form, 'Step 1 › Else 1');
    await otherwise.getByLabel('Step 1 › Else 1: action').selectOption('CREATE_TASK');
    await otherwise.getByLabel('Title', { exact: true }).fill('Call {{ trigger.body.name }}');

    // Step 2: wait two hours.
    await form.getByRole('button', { name: 'Add an action', exact: true }).click();
    await form.getByLabel('Step 2: action').selectOption('DELAY');
    expect(await group(form, 'Step 2').getByLabel('Wait').inputValue()).toBe('for');
    await group(form, 'Step 2').getByLabel('Duration').fill('PT2H');

    // Step 3: a comment for each line of the order, going on past a failed one.
    await form.getByRole('button', { name: 'Add an action', exact: true }).click();
    await form.getByLabel('Step 3: action').selectOption('FOR_EACH');
    const loop = group(form, 'Step 3');
    await loop.getByLabel('Items').fill('{{ trigger.body.lines }}');
    await loop.getByLabel('Go on with the next item when a step fails').check();
    await form.getByRole('button', { name: 'Add an action to Step 3 › Each', exact: true }).click();
    await group(form, 'Step 3 › Each 1').getByLabel('Comment').fill('Line {{ loop.index }}: {{ item.sku }}');

    // Step 4: code, named for later steps, run on a sample before saving.
    await form.getByRole('button', { name: 'Add an action', exact: true }).click();
    await form.getByLabel('Step 4: action').selectOption('CODE');
    const code = group(form, 'Step 4 code');
    await group(form, 'Step 4').getByLabel('Step key (optional)').fill('total');
    const editor = code.getByLabel('JavaScript: the body of a function of input');
    // Tab indents in the editor instead of leaving it.
    await editor.fill('return 1;');
    await editor.press('Control+End');
    await editor.press('Tab');
    expect(await editor.inputValue()).toBe('return 1;  ');
    // Tab indented and kept the focus in the editor.
    expect(await page.evaluate('document.activeElement?.tagName')).toBe('TEXTAREA');
    // A failing source shows the error with its line.
    await editor.fill("const lines = [];\nthrow new Error('no lines');");
    await code.getByRole('button', { name: 'Test run' }).click();
    await expect
      .poll(() => code.getByTestId('code-result').textContent())
      .toContain('throw on line 2: Error: no lines');
    await editor.fill(SOURCE);
    await code.getByLabel('Sample input (JSON)').fill(SAMPLE);
    await code.getByRole('button', { name: 'Test run' }).click();
    await expect.poll(() => code.getByTestId('code-result').textContent()).toContain('"count": 2');
    expect(await code.getByTestId('code-result').textContent()).toContain('"A-1"');
    await code.scrollIntoViewIfNeeded();
    await browser.screenshot('automation-code-test', page, { fullPage: false });

    // The missing comment in "Then" is refused (actions.0.then.0.text), the message shown at its input
    // and not again above the form.
    await form.getByRole('button', { name: 'Create automation' }).click();
    await expect
      .poll(() => group(form, 'Step 1 › Then 1').locator('.field-error').textContent())
      .toBe('is required');
    expect(await form.locator('.problem li').count()).toBe(0);
    await browser.screenshot('automation-builder-branch', page);
    await group(form, 'Step 1 › Then 1').getByLabel('Comment').fill('Big order from {{ trigger.body.name }}');
    await form.getByRole('button', { name: 'Create automation' }).click();
    await page.getByRole('heading', { name: 'Order intake' }).waitFor();

    const id = page.url().split('/').pop()!;
    const expected = [
      {
        type: 'BRANCH',
        if: {
          all: [
            { left: '{{ trigger.body.total }}', operator: 'GREATER_THAN', right: 100 },
            { not: { left: '{{ trigger.body.country }}', operator: 'EQUALS', right: 'DE' } },
          ],
        },
        then: [{ type: 'ADD_COMMENT', text: 'Big order from {{ trigger.body.name }}' }],
        else: [{ type: 'CREATE_TASK', title: 'Call {{ trigger.body.name }}' }],
      },
      { type: 'DELAY', for: 'PT2H' },
      {
        type: 'FOR_EACH',
        items: '{{ trigger.body.lines }}',
        continueOnError: true,
        actions: [{ type: 'ADD_COMMENT', text: 'Line {{ loop.index }}: {{ item.sku }}' }],
      },
      { type: 'CODE', name: 'total', source: SOURCE },
    ];
    const saved = await app.api(ws.apiKey, 'GET', `/api/v1/workflows/${id}`);
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.data.actions).toEqual(expected);

    // The editor reads the saved tree back: saving it unchanged keeps it as it was.
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    const edit = page.getByRole('form', { name: 'Edit the automation' });
    expect(await group(edit, 'Step 1 › if › 2 › not').getByLabel('Compared with').inputValue()).toBe('DE');
    await edit.getByRole('button', { name: 'Save', exact: true }).click();
    await edit.waitFor({ state: 'detached' });
    const again = await app.api(ws.apiKey, 'GET', `/api/v1/workflows/${id}`);
    expect(again.body.data.actions).toEqual(expected);
  }, 60_000);

  it('creates a scheduled automation with an approval, a dated delay, a loop over records and members to notify', async () => {
    const { page } = browser;
    await page.goto(`${app.url}/settings/automations`);
    await page.getByRole('button', { name: 'New automation' }).click();
    const form = page.getByRole('form', { name: 'New automation' });
    await form.getByLabel('Name', { exact: true }).fill('Weekly review');
    await form.getByLabel('Trigger').selectOption('SCHEDULE');
    await form.getByLabel('Cron expression').fill('0 9 * * 1');
    await form.getByLabel('Time zone (optional)').fill('Europe/Berlin');
    // The signature is for incoming webhooks only.
    expect(await form.getByLabel('Require callers to sign the body').count()).toBe(0);

    await form.getByLabel('Step 1: action').selectOption('APPROVAL');
    const approval = group(form, 'Step 1');
    await approval.getByLabel('Approver').selectOption(ws.userId);
    await approval.getByLabel('Task title (optional)').fill('Review the week');
    await approval.getByLabel('Timeout (optional)', { exact: true }).fill('P2D');
    await approval.getByLabel('On timeout (optional)').selectOption('FAIL');

    await form.getByRole('button', { name: 'Add an action', exact: true }).click();
    await form.getByLabel('Step 2: action').selectOption('DELAY');
    const delay = group(form, 'Step 2');
    await delay.getByLabel('Wait').selectOption('until');
    await delay.getByLabel('Until').fill('2026-12-01');
    await delay.getByLabel('At (local time, HH:MM) (optional)').fill('09:00');
    await delay.getByLabel('Time zone (optional)').fill('Europe/Berlin');

    await form.getByRole('button', { name: 'Add an action', exact: true }).click();
    await form.getByLabel('Step 3: action').selectOption('FOR_EACH');
    const loop = group(form, 'Step 3');
    await loop.getByLabel('Go through').selectOption('records');
    await loop.getByLabel('Records of the folder').selectOption({ label: 'People' });
    await loop.getByLabel('Search (optional)').fill('ada');
    await form.getByRole('button', { name: 'Add an action to Step 3 › Each', exact: true }).click();
    const each = group(form, 'Step 3 › Each 1');
    await each.getByLabel('Step 3 › Each 1: action').selectOption('CREATE_TASK');
    await each.getByLabel('Title', { exact: true }).fill('Call {{ item.title }}');

    await form
      .getByRole('group', { name: 'When a run fails, give a task to (optional)' })
      .getByLabel('Owner')
      .check();
    await form.getByRole('button', { name: 'Create automation' }).click();
    await page.getByRole('heading', { name: 'Weekly review' }).waitFor();
    const facts = (await page.locator('.facts').textContent()) ?? '';
    expect(facts).toContain('0 9 * * 1 in Europe/Berlin');
    expect(facts).toContain('Next run:');
    expect(facts).toMatch(/When a run failsa task for Owner \d+/);

    const saved = await app.api(ws.apiKey, 'GET', `/api/v1/workflows/${page.url().split('/').pop()}`);
    expect(saved.body.data).toMatchObject({
      trigger: {
        type: 'SCHEDULE',
        cron: '0 9 * * 1',
        timezone: 'Europe/Berlin',
        nextRunAt: expect.any(String),
      },
      notifyOnFailure: [ws.userId],
    });
    expect(saved.body.data.actions).toEqual([
      {
        type: 'APPROVAL',
        assigneeId: ws.userId,
        title: 'Review the week',
        timeout: 'P2D',
        onTimeout: 'FAIL',
      },
      { type: 'DELAY', until: '2026-12-01', at: '09:00', timezone: 'Europe/Berlin' },
      {
        type: 'FOR_EACH',
        records: { folderId: ws.folderId, q: 'ada' },
        actions: [{ type: 'CREATE_TASK', title: 'Call {{ item.title }}' }],
      },
    ]);
  });

  it('shows a schedule and its next run in the list and on the automation', async () => {
    const res = await app.api(ws.apiKey, 'POST', '/api/v1/workflows', {
      name: 'Monday digest',
      trigger: { type: 'SCHEDULE', cron: '0 9 * * 1-5', timezone: 'Europe/Berlin' },
      actions: [{ type: 'CODE', source: 'return 1;' }],
    });
    expect(res.status, res.text).toBe(201);
    const nextRunAt: string = res.body.data.trigger.nextRunAt;
    expect(Date.parse(nextRunAt)).toBeGreaterThan(Date.now());
    const { page } = browser;
    await page.goto(`${app.url}/settings/automations`);
    const row = page.getByRole('row', { name: /Monday digest/ });
    await row.waitFor();
    expect(await row.textContent()).toContain('schedule 0 9 * * 1-5 (Europe/Berlin)');
    expect(await row.locator(`time[datetime="${nextRunAt}"]`).count()).toBe(1);
    expect(await row.textContent()).toContain('Next run:');
    await row.getByRole('link', { name: 'Monday digest' }).click();
    await page.getByRole('heading', { name: 'Monday digest' }).waitFor();
    expect(await page.locator('.facts').textContent()).toContain('0 9 * * 1-5 in Europe/Berlin');
  });

  it('shows a run waiting for an approval as a tree, approves it and sees the run go on', async () => {
    const created = await app.api(ws.apiKey, 'POST', '/api/v1/workflows', {
      name: 'Discount approval',
      trigger: { type: 'INCOMING_WEBHOOK' },
      actions: [
        {
          type: 'FOR_EACH',
          items: '{{ trigger.body.lines }}',
          actions: [{ type: 'CODE', source: 'return { sku: input.item.sku, n: input.loop.index };' }],
        },
        {
          type: 'APPROVAL',
          name: 'ok',
          assigneeId: ws.userId,
          title: 'Discount for {{ trigger.body.name }}',
          timeout: 'P3D',
          onTimeout: 'REJECT',
        },
        {
          type: 'BRANCH',
          if: { left: '{{ steps.ok.output.approved }}', operator: 'EQUALS', right: true },
          then: [{ type: 'CODE', source: "return 'approved';" }],
          else: [{ type: 'CODE', source: "return 'rejected';" }],
        },
      ],
    });
    expect(created.status, created.text).toBe(201);
    const id: string = created.body.data.id;
    const runId = await trigger(id);
    const waiting = await runWhen(runId, 'WAITING');
    expect(waiting.resumeAt).toEqual(expect.any(String));
    expect(waiting.steps.map((s: { path: string; status: string }) => [s.path, s.status])).toEqual([
      ['0', 'SUCCEEDED'],
      ['0.items.0.0', 'SUCCEEDED'],
      ['0.items.1.0', 'SUCCEEDED'],
      ['1', 'WAITING'],
      ['2', 'PENDING'],
      ['2.then.0', 'PENDING'],
      ['2.else.0', 'PENDING'],
    ]);

    const { page } = browser;
    await page.goto(`${app.url}/settings/automations/${id}`);
    const run = page.getByTestId('run').first();
    await run.locator('summary').click();
    expect(await run.locator('summary .badge').textContent()).toBe('WAITING');
    expect(await run.locator('summary').textContent()).toContain('waits for an approval, times out');
    // The steps as a tree: a loop's items under the loop, a branch's arms under the branch.
    const step = (path: string) => run.locator(`[data-path="${path}"]`);
    expect(await step('0').locator(':scope > .step-group > h5').allTextContents()).toEqual([
      'Item 0',
      'Item 1',
    ]);
    expect(await step('0').locator('[data-path="0.items.1.0"]').count()).toBe(1);
    expect(await step('2').locator(':scope > .step-group > h5').allTextContents()).toEqual(['Then', 'Else']);
    expect(await step('2').locator('[data-path="2.else.0"]').count()).toBe(1);
    expect(await step('1').locator(':scope > .badge').textContent()).toBe('WAITING');
    expect(await step('2.then.0').locator(':scope > .badge').textContent()).toBe('PENDING');
    const approval = run.getByRole('region', { name: 'Approval' });
    await approval.getByRole('button', { name: 'Reject' }).waitFor();
    await browser.screenshot('automation-run-waiting', page);

    await approval.getByLabel('Comment (optional)').fill('Within budget');
    await approval.getByRole('button', { name: 'Approve' }).click();
    // The run is queued again and read until it stops.
    await expect
      .poll(() => run.locator('summary .badge').textContent(), { timeout: 20_000 })
      .toBe('SUCCEEDED');
    expect(await step('2.then.0').locator(':scope > .badge').textContent()).toBe('SUCCEEDED');
    expect(await step('2.else.0').locator(':scope > .badge').textContent()).toBe('SKIPPED');
    expect(await run.getByRole('region', { name: 'Approval' }).count()).toBe(0);

    const done = await app.api(ws.apiKey, 'GET', `/api/v1/runs/${runId}`);
    expect(done.body.data.status).toBe('SUCCEEDED');
    const stepAt = (path: string) => done.body.data.steps.find((s: { path: string }) => s.path === path);
    expect(stepAt('1').output).toMatchObject({ approved: true, by: ws.userId, comment: 'Within budget' });
    expect(stepAt('2.then.0')).toMatchObject({ status: 'SUCCEEDED', output: 'approved' });
    expect(stepAt('2.else.0').status).toBe('SKIPPED');
    // The approval's task is an ordinary task of the assignee, completed by the answer.
    const tasks = await app.api(ws.apiKey, 'GET', `/api/v1/tasks?assigneeId=${ws.userId}&status=DONE`);
    expect(tasks.body.data).toEqual(
      expect.arrayContaining([expect.objectContaining({ title: 'Discount for Ada', status: 'DONE' })]),
    );
  });

  it('cancels a waiting run', async () => {
    const list = await app.api(ws.apiKey, 'GET', '/api/v1/workflows');
    const id = list.body.data.find((w: { name: string }) => w.name === 'Discount approval').id;
    const runId = await trigger(id);
    await runWhen(runId, 'WAITING');
    const { page } = browser;
    await page.getByRole('button', { name: 'Refresh runs' }).click();
    const run = page.getByTestId('run').first();
    await expect.poll(() => run.locator('summary .badge').textContent()).toBe('WAITING');
    await run.locator('summary').click();
    page.once('dialog', (dialog) => dialog.accept());
    await run.getByRole('button', { name: 'Cancel run' }).click();
    await expect.poll(() => run.locator('summary .badge').textContent()).toBe('CANCELLED');
    expect(await run.getByRole('button', { name: 'Cancel run' }).count()).toBe(0);
    expect(await run.getByRole('button', { name: 'Re-run' }).isEnabled()).toBe(true);
    const cancelled = await app.api(ws.apiKey, 'GET', `/api/v1/runs/${runId}`);
    expect(cancelled.body.data.status).toBe('CANCELLED');
  });
});

/** POSTs to the workflow's trigger URL; answers the id of the run it queued. */
async function trigger(workflowId: string): Promise<string> {
  const res = await fetch(`${app.url}/api/webhooks/trigger/${workflowId}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Ada', lines: [{ sku: 'A-1' }, { sku: 'B-2' }] }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { runId: string }).runId;
}

/** The run once it has this status (it fails the test if it ends otherwise). */
async function runWhen(runId: string, status: string) {
  return eventually(async () => {
    const res = await app.api(ws.apiKey, 'GET', `/api/v1/runs/${runId}`);
    const run = res.body.data;
    if (run?.status === status) return run;
    if (run?.status === 'FAILED' || run?.status === 'CANCELLED' || run?.status === 'SUCCEEDED')
      throw new Error(`run ${runId} ended ${run.status}: ${JSON.stringify(run)}`);
    return undefined;
  }, 20_000);
}

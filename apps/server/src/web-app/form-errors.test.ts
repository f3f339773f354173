import { ensureBuilt } from '@crm/web/build';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, browserUnavailable, signedInBrowser } from '../testing/browser.ts';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';

/**
 * The forms of the settings and the task list in Chromium (docs/web-app.md): a value the
 * service refuses is shown at its own field, marked invalid for screen readers, in words a
 * person reads (no "expected string, received undefined"), and the form's other fields are
 * not marked. One refusal planted per form; the records, import, sandbox and automation
 * forms have theirs in their own files.
 */

const unavailable = browserUnavailable();
if (unavailable) console.warn(`The browser tests (form-errors.test.ts) are skipped: ${unavailable}.`);

let app: TestApp;
let ws: TestWorkspace;
let browser: Browser;

beforeAll(async () => {
  if (unavailable) return;
  await ensureBuilt({ log: () => {} });
  app = await startTestApp();
  ws = await app.createWorkspace({ name: 'Forms' });
  browser = await signedInBrowser(app, ws);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

/** Words of a validation library rather than of a person. */
const JARGON = /expected|received|invalid_|Invalid input|undefined|NaN/;

interface Case {
  form: string;
  page: string;
  /** Labels and values to fill in, in order. */
  fill: [label: string, value: string][];
  submit: string;
  /** The field whose error is expected. */
  field: string;
  /** Fields of the form that must stay unmarked. */
  untouched: string[];
}

const CASES: Case[] = [
  {
    form: 'Register a webhook',
    page: '/settings/webhooks',
    fill: [['URL', 'ftp://files.example.com/hooks']],
    submit: 'Register webhook',
    field: 'URL',
    untouched: ['Description (optional)'],
  },
  {
    form: 'Invite a member',
    page: '/settings/members',
    fill: [['Email', 'not-an-address']],
    submit: 'Create invitation link',
    field: 'Email',
    untouched: ['Role'],
  },
  {
    form: 'Add a field to People',
    page: '/settings/folders',
    fill: [
      ['Label', 'Account score'],
      ['Key', 'account score!'],
    ],
    submit: 'Add field',
    field: 'Key',
    untouched: ['Label'],
  },
  {
    form: 'Create an API key',
    page: '/settings/keys',
    fill: [['Name', '']],
    submit: 'Create key',
    field: 'Name',
    untouched: ['Expires on (optional)'],
  },
  {
    form: 'Register an app',
    page: '/settings/apps',
    fill: [['Name', '']],
    submit: 'Register',
    field: 'Name',
    untouched: [],
  },
  {
    form: 'Create a folder',
    page: '/settings/folders',
    fill: [['New folder', '']],
    submit: 'Create folder',
    field: 'New folder',
    untouched: [],
  },
  {
    form: 'Add a deal',
    page: '/pipeline',
    fill: [
      ['Deal', 'Renewal'],
      ['Amount', '-5'],
    ],
    submit: 'Add deal',
    field: 'Amount',
    untouched: ['Deal', 'Stage'],
  },
  {
    form: 'Add a task',
    page: '/tasks',
    fill: [['Task', '   ']],
    submit: 'Add task',
    field: 'Task',
    untouched: ['Priority'],
  },
];

describe.skipIf(unavailable)('errors at the field in Chromium', () => {
  for (const c of CASES) {
    it(`${c.form}: a refused ${c.field} is shown at that field, in words`, async () => {
      const { page } = browser;
      await page.goto(`${app.url}${c.page}`);
      const form = page.getByRole('form', { name: c.form });
      await form.waitFor();
      for (const [label, value] of c.fill) await form.getByLabel(label, { exact: true }).fill(value);
      await form.getByRole('button', { name: c.submit }).click();
      const input = form.getByLabel(c.field, { exact: true });
      await expect.poll(() => input.getAttribute('aria-invalid')).toBe('true');
      const describedBy = (await input.getAttribute('aria-describedby')) ?? '';
      const errorId = describedBy.split(' ').find((id) => id.endsWith('-error'));
      expect(errorId, `${c.field} names its error`).toBeDefined();
      const message = ((await page.locator(`[id="${errorId}"]`).textContent()) ?? '').trim();
      expect(message.length).toBeGreaterThan(0);
      expect(message).not.toMatch(JARGON);
      // Above the form, and on the status line, the refusal is summed up in words, not by the
      // input paths the service names the fields by.
      const summary = (await form.locator('.problem p').textContent()) ?? '';
      expect(summary).toMatch(/^Not saved: (?:one value needs|\d+ values need) correcting/);
      await expect.poll(() => page.getByRole('status').textContent()).toBe(summary);
      for (const other of c.untouched) {
        expect(await form.getByLabel(other, { exact: true }).getAttribute('aria-invalid')).toBeNull();
      }
    });
  }
});

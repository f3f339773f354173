import { readFile } from 'node:fs/promises';
import { ensureBuilt } from '@crm/web/build';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../../../web/src/lib/csv.ts';
import { exportJobInput } from '../../../web/src/pages/records/export-job-input.ts';
import {
  guardedCells,
  importJobInput,
  JOB_IMPORT_BYTES,
} from '../../../web/src/pages/records/import-job-input.ts';
import { type ImportField, targetsOf } from '../../../web/src/pages/records/import-rows.ts';
import { type Browser, browserUnavailable, signedInBrowser } from '../testing/browser.ts';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';

/**
 * Jobs in the web app, in Chromium (docs/web-app.md, "CSV import and export", "Jobs"): a CSV
 * file above the job threshold imported through a job from the records page (its progress
 * bar, its counts, its refused rows and their reasons), a file the server refuses, an export
 * of the whole folder and of a filtered view through jobs, and the Jobs page listing them.
 */

const unavailable = browserUnavailable();
if (unavailable) console.warn(`The browser tests (jobs-page.test.ts) are skipped: ${unavailable}.`);

let app: TestApp;
let ws: TestWorkspace;
let browser: Browser;
let ownerName: string;

/** Rows of the large file: well above 1 MiB. */
const ROWS = 20_000;

beforeAll(async () => {
  if (unavailable) return;
  await ensureBuilt({ log: () => {} });
  app = await startTestApp({ worker: true, env: { WORKER_POLL_INTERVAL_MS: '100' } });
  ws = await app.createWorkspace({ name: 'Jobs' });
  const owner = await app.service.pool.query<{ name: string }>('select name from users where id = $1', [
    ws.userId,
  ]);
  ownerName = owner.rows[0]!.name;
  // People has company (TEXT) and lifecycle (SELECT); the score is a number.
  const field = await app.api(ws.apiKey, 'POST', `/api/v1/folders/${ws.folderId}/fields`, {
    key: 'score',
    label: 'Score',
    type: 'NUMBER',
  });
  expect(field.status).toBe(201);
  // Row 0 of the file updates this one; row 1 holds exactly what this one does.
  for (const body of [
    { title: 'Old name', email: 'person0@jobs.example', data: { company: 'Before' } },
    {
      title: 'Person 1',
      email: 'person1@jobs.example',
      phone: '+1 555 0001',
      data: { company: 'Company 1', lifecycle: 'Lead', score: 37 },
    },
  ]) {
    const made = await app.api(ws.apiKey, 'POST', '/api/v1/records', { folderId: ws.folderId, ...body });
    expect(made.status).toBe(201);
  }
  browser = await signedInBrowser(app, ws);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

type Fault = 'title' | 'email' | 'score' | 'lifecycle' | 'no-email' | 'wide';

/** A CSV of `n` contacts, emailed `<prefix><i>@jobs.example`; `bad` rows (by index) get the fault named. */
function contactsCsv(n: number, bad: Record<number, Fault> = {}, prefix = 'person'): string {
  const lines = ['Name,E-mail,Phone,Company,Lifecycle,Score'];
  for (let i = 0; i < n; i++) {
    const fault = bad[i];
    const cells = [
      fault === 'title' ? '' : `Person ${i}`,
      fault === 'email' ? 'not-an-address' : fault === 'no-email' ? '' : `${prefix}${i}@jobs.example`,
      `+1 555 ${String(i).padStart(4, '0')}`,
      i === 4 ? '"Smith, Jones & ""Partners"""' : `Company ${i % 10}`,
      fault === 'lifecycle' ? 'Unknown' : i % 4 === 0 ? 'Customer' : 'Lead',
      fault === 'score' ? 'lots' : String((i * 37) % 100),
    ];
    if (fault === 'wide') cells.push('one too many');
    lines.push(cells.join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

async function countRecords(query = ''): Promise<number> {
  const res = await app.api(
    ws.apiKey,
    'GET',
    `/api/v1/records?folderId=${ws.folderId}&count=true&pageSize=1&${query}`,
  );
  expect(res.status).toBe(200);
  return res.body.meta.total as number;
}

async function jobs(query = ''): Promise<{ id: string; type: string; status: string }[]> {
  const res = await app.api(ws.apiKey, 'GET', `/api/v1/jobs?pageSize=200&${query}`);
  expect(res.status).toBe(200);
  return res.body.data;
}

async function downloaded(page: Page, click: () => Promise<void>): Promise<{ name: string; text: string }> {
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), click()]);
  const path = await download.path();
  return { name: download.suggestedFilename(), text: await readFile(path!, 'utf8') };
}

async function openImport(page: Page, name: string, csv: string) {
  if ((await page.getByLabel('CSV file').count()) === 0) {
    await page.getByRole('button', { name: 'Import CSV' }).click();
  }
  await page.getByLabel('CSV file').setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByRole('heading', { name: 'Preview' }).waitFor();
}

const number = (text: string | null) => Number((text ?? '').replace(/,/g, ''));

describe('the job inputs the records page makes', () => {
  const fields: ImportField[] = [
    { key: 'company', label: 'Company', type: 'TEXT' },
    { key: 'tags', label: 'Tags', type: 'MULTI_SELECT', options: ['a', 'b'] },
    {
      key: 'employer',
      label: 'Employer',
      type: 'RELATION',
      relation: { folderId: 'fld_companies', cardinality: 'ONE' },
    },
  ];
  const targets = targetsOf(fields);

  it('maps each column by its header name, a relation with how it names its record, upserting by email', () => {
    const made = importJobInput({
      folderId: 'fld_x',
      header: ['Name', 'Mail', 'Notes', 'Employer'],
      mapping: ['title', 'email', '', 'data.employer:email'],
      targets,
      upsertByEmail: true,
    });
    expect(made).toEqual({
      input: {
        folderId: 'fld_x',
        format: 'csv',
        mapping: { Name: 'title', Mail: 'email', Employer: 'data.employer' },
        upsertBy: 'email',
        relations: { 'data.employer': 'email' },
      },
      problems: [],
    });
    const created = importJobInput({
      folderId: 'fld_x',
      header: ['Name', 'Mail'],
      mapping: ['title', 'email'],
      targets,
      upsertByEmail: false,
    });
    expect(created.input).not.toHaveProperty('upsertBy');
  });

  it('names the columns a job cannot read: a blank header, a name written twice', () => {
    const made = importJobInput({
      folderId: 'fld_x',
      header: ['Name', '', 'Name'],
      mapping: ['title', 'data.company', ''],
      targets,
      upsertByEmail: true,
    });
    expect(made).toEqual({
      input: null,
      problems: [
        'The header names the column “Name” 2 times; each needs its own name.',
        'Column 2 has no name in the header; give it one, or do not import it.',
      ],
    });
  });

  it('counts the cells whose formula guard a job would keep', () => {
    expect(
      guardedCells(
        [
          ["'+1 555", "'=x", 'plain'],
          ['a', "'-3", "'=y"],
        ],
        ['phone', 'title', ''],
      ),
    ).toBe(3);
  });

  it('makes an export of the view: its filters as one JSON filter, its search, sort and fields', () => {
    const folder = {
      id: 'fld_x',
      fields: [{ key: 'company' }, { key: 'score' }],
    } as Parameters<typeof exportJobInput>[0]['folder'];
    const view = {
      columns: ['title', 'data.score', 'createdAt'],
      sort: '-data.score',
      filters: [
        { field: 'data.lifecycle', op: 'in' as const, value: 'Lead,Customer' },
        { field: 'email', op: 'empty' as const, value: 'false' },
      ],
    };
    expect(exportJobInput({ folder, view, search: 'acme', format: 'csv' })).toEqual({
      folderId: 'fld_x',
      format: 'csv',
      fields: ['data.score'],
      filter: {
        and: [
          { field: 'data.lifecycle', op: 'in', value: ['Lead', 'Customer'] },
          { field: 'email', op: 'empty', value: false },
        ],
      },
      q: 'acme',
      sort: '-data.score',
    });
    expect(
      exportJobInput({
        folder,
        view: { columns: [], sort: null, filters: [] },
        search: '',
        format: 'ndjson',
      }),
    ).toEqual({ folderId: 'fld_x', format: 'ndjson', fields: [] });
  });
});

describe.skipIf(unavailable)('jobs in Chromium', () => {
  it('imports a file above the threshold through a job: progress bar, counts, refused rows and their reasons', async () => {
    const { page } = browser;
    const csv = contactsCsv(ROWS, {
      5: 'score',
      10: 'title',
      20: 'email',
      40: 'lifecycle',
      15000: 'no-email',
    });
    expect(Buffer.byteLength(csv)).toBeGreaterThan(JOB_IMPORT_BYTES);
    await openImport(page, 'contacts-large.csv', csv);
    await page.getByTestId('import-by-job').waitFor();
    // The preview judges the rows of the file's first megabyte: four of them are refused.
    await expect
      .poll(() => page.getByTestId('preview-summary').textContent())
      .toMatch(/^4 of the \d+ rows of the file’s first megabyte would be refused as they are\.$/);
    expect(await page.getByLabel('Column “E-mail”').inputValue()).toBe('email');
    expect(await page.getByLabel('Column “Score”').inputValue()).toBe('data.score');
    const started = performance.now();
    await page.getByRole('button', { name: /^Import all rows \(1\.\d MB\)$/ }).click();
    const bar = page.getByRole('progressbar', { name: 'Rows imported' });
    await bar.waitFor({ timeout: 30_000 });
    // The bar counts the file's rows once the server has them.
    await expect.poll(() => bar.getAttribute('max'), { timeout: 30_000 }).toBe(String(ROWS));
    await page.getByRole('region', { name: 'Import result' }).waitFor({ timeout: 120_000 });
    console.log(
      `${ROWS} rows imported through a job from the records page in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    expect(await bar.getAttribute('value')).toBe(String(ROWS));
    // The row without an email (15000) is created: an upsert by email creates what has none.
    expect(number(await page.getByTestId('created').textContent())).toBe(ROWS - 6);
    expect(number(await page.getByTestId('updated').textContent())).toBe(1);
    expect(number(await page.getByTestId('unchanged').textContent())).toBe(1);
    expect(number(await page.getByTestId('refused').textContent())).toBe(4);
    // Numbered as the batch import numbers them: the header is row 1.
    await page.locator('table.refused tbody tr').first().waitFor();
    const refused = await page.locator('table.refused tbody tr').allInnerTexts();
    expect(refused.map((r) => r.replace(/\s+/g, ' ').trim())).toEqual([
      '7 data.score must be a number',
      // An empty cell is no value in a job (docs/jobs.md, "Imports"): the title is missing.
      '12 title is required',
      '22 email must be an email address',
      '42 data.lifecycle must be one of: Lead, Prospect, Customer, Churned',
    ]);
    await expect
      .poll(() => page.getByRole('status').textContent())
      .toContain(
        `Import finished: ${(ROWS - 6).toLocaleString('en-US')} created, 1 updated, 1 unchanged, 4 refused.`,
      );
    // All the results, one line a row, with the session cookie alone.
    const results = await downloaded(page, () =>
      page.getByRole('link', { name: 'Download all results (NDJSON)' }).click(),
    );
    const lines = results.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toHaveLength(ROWS);
    expect(lines[6]).toMatchObject({ row: 7, status: 'created' });
    expect(lines[5]).toMatchObject({ row: 6, status: 'refused' });
    // The server holds what the page says.
    expect(await countRecords()).toBe(ROWS - 4);
    const updated = await app.api(
      ws.apiKey,
      'GET',
      `/api/v1/records?folderId=${ws.folderId}&filter[email]=person0@jobs.example`,
    );
    expect(updated.body.data).toMatchObject([
      { title: 'Person 0', data: { company: 'Company 0', score: 0 } },
    ]);
    const quoted = await app.api(
      ws.apiKey,
      'GET',
      `/api/v1/records?folderId=${ws.folderId}&filter[email]=person4@jobs.example`,
    );
    expect(quoted.body.data[0].data.company).toBe('Smith, Jones & "Partners"');
    await page.getByRole('button', { name: 'Close' }).click();
  }, 180_000);

  it('shows why the server refused a file, and cancels the job that waited for it', async () => {
    const { page } = browser;
    const before = await countRecords();
    await openImport(page, 'wide.csv', contactsCsv(ROWS, { 17000: 'wide' }));
    await page.getByRole('button', { name: /^Import all rows/ }).click();
    const problem = page.locator('.import .problem');
    await problem.waitFor({ timeout: 30_000 });
    expect(await problem.textContent()).toBe(
      "The file was not imported. Row 17001 (line 17002) has 7 columns, more than the header's 6. Nothing of it was written.",
    );
    // The panel is usable again, the records as they were, and the job ended.
    expect(await page.getByRole('button', { name: /^Import all rows/ }).isEnabled()).toBe(true);
    expect(await countRecords()).toBe(before);
    await expect
      .poll(async () => (await jobs('type=IMPORT')).map((j) => j.status))
      .toEqual(['CANCELLED', 'SUCCEEDED']);
    await page.getByRole('button', { name: 'Close' }).click();
  }, 60_000);

  it('exports the whole folder through a job and downloads its file', async () => {
    const { page } = browser;
    await page.getByRole('button', { name: 'Export all (job)' }).click();
    const panel = page.getByRole('region', { name: 'Export People through a job' });
    await panel.getByRole('button', { name: 'Start the export' }).click();
    const link = panel.getByRole('link', { name: /^Download the CSV file of People/ });
    await link.waitFor({ timeout: 60_000 });
    const total = await countRecords();
    expect(await link.textContent()).toBe(
      `Download the CSV file of People (${total.toLocaleString('en-US')} records)`,
    );
    expect(await panel.getByRole('progressbar', { name: 'Records exported' }).getAttribute('value')).toBe(
      String(total),
    );
    const file = await downloaded(page, () => link.click());
    expect(file.name).toMatch(/^job_[0-9a-z]{26}\.csv$/);
    const parsed = parseCsv(file.text);
    expect(parsed.columns).toEqual([
      'id',
      'title',
      'email',
      'phone',
      'ownerId',
      'createdAt',
      'updatedAt',
      'company',
      'lifecycle',
      'score',
    ]);
    expect(parsed.rows).toHaveLength(total);
    expect(parsed.rows.some((row) => row[7] === 'Smith, Jones & "Partners"')).toBe(true);
    await panel.getByRole('button', { name: 'Close' }).click();
  }, 90_000);

  it('exports the filtered, sorted view through a job: only the records it matches, in its order', async () => {
    const { page } = browser;
    await page.getByText('Add a filter').click();
    await page.getByLabel('Filter field').selectOption({ label: 'Lifecycle' });
    await page.getByLabel('Operator').selectOption('eq');
    await page.getByLabel('Value').selectOption('Customer');
    await page.getByRole('button', { name: 'Add filter' }).click();
    await page.getByRole('button', { name: 'Remove filter: Lifecycle is Customer' }).waitFor();
    const score = page.locator('th[data-column="data.score"]');
    await score.getByRole('button').click();
    await expect.poll(() => score.getAttribute('aria-sort')).toBe('ascending');
    await page.getByRole('button', { name: 'Export all (job)' }).click();
    const panel = page.getByRole('region', { name: 'Export People through a job' });
    await panel.getByText('Every record the search and filters match, in the table’s order').waitFor();
    await panel.getByLabel('Format').selectOption('ndjson');
    await panel.getByRole('button', { name: 'Start the export' }).click();
    const link = panel.getByRole('link', { name: /^Download the NDJSON file of People/ });
    await link.waitFor({ timeout: 60_000 });
    const customers = await countRecords('filter[data.lifecycle]=Customer');
    // Every fourth row is a customer; two of them were refused (rows 20 and 40).
    expect(customers).toBe(ROWS / 4 - 2);
    const file = await downloaded(page, () => link.click());
    const records = file.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { data: { lifecycle: string; score: number } });
    expect(records).toHaveLength(customers);
    expect(records.every((r) => r.data.lifecycle === 'Customer')).toBe(true);
    const scores = records.map((r) => r.data.score);
    expect(scores).toEqual([...scores].sort((a, b) => a - b));
    await panel.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: 'Remove filter: Lifecycle is Customer' }).click();
  }, 90_000);

  it('lists the jobs on the Jobs page, with their files, and cancels one that has not ended', async () => {
    const { page } = browser;
    // One made through the API that waits for its file.
    const waiting = await app.api(ws.apiKey, 'POST', '/api/v1/jobs/imports', {
      folderId: ws.folderId,
      format: 'csv',
      mapping: { Name: 'title' },
    });
    expect(waiting.status).toBe(201);
    const waitingId = waiting.body.data.id as string;
    await page.getByRole('link', { name: 'Jobs', exact: true }).click();
    await page.getByRole('heading', { name: 'Jobs' }).waitFor();
    const table = page.getByRole('table', { name: 'Jobs, newest first' });
    await table.waitFor();
    const listed = await jobs();
    expect(listed.map((j) => `${j.type} ${j.status}`)).toEqual([
      'IMPORT AWAITING_FILE',
      'EXPORT SUCCEEDED',
      'EXPORT SUCCEEDED',
      'IMPORT CANCELLED',
      'IMPORT SUCCEEDED',
    ]);
    const rows = table.locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(listed.length);
    expect(await Promise.all((await rows.all()).map((tr) => tr.getAttribute('data-job')))).toEqual(
      listed.map((j) => j.id),
    );
    const row = (id: string) => table.locator(`tr[data-job="${id}"]`);
    const [, ndjsonExport, csvExport, cancelled, imported] = listed;
    // The import: its counts, its maker, its results.
    const importRow = row(imported!.id);
    expect(await importRow.locator('.badge').textContent()).toBe('succeeded');
    const progress = importRow.locator('td').nth(3);
    expect(await progress.locator('div').textContent()).toBe(
      `${ROWS.toLocaleString('en-US')} of ${ROWS.toLocaleString('en-US')} rows`,
    );
    expect(await progress.locator('small').textContent()).toBe(
      `${(ROWS - 6).toLocaleString('en-US')} created · 1 updated · 1 unchanged · 4 refused`,
    );
    expect(await importRow.locator('td').nth(4).textContent()).toBe(ownerName);
    expect(
      await importRow.getByRole('link', { name: `Results of ${imported!.id}` }).getAttribute('href'),
    ).toBe(`/api/v1/jobs/${imported!.id}/results`);
    expect(await row(cancelled!.id).locator('.badge').textContent()).toBe('cancelled');
    // Its file was refused: no row done, no results.
    expect(await row(cancelled!.id).getByRole('link').count()).toBe(0);
    // An export's file, with the cookie alone.
    const file = await downloaded(page, () =>
      row(csvExport!.id)
        .getByRole('link', { name: `File of ${csvExport!.id}` })
        .click(),
    );
    expect(parseCsv(file.text).rows).toHaveLength(await countRecords());
    expect(
      await row(ndjsonExport!.id)
        .getByRole('link', { name: `File of ${ndjsonExport!.id}` })
        .count(),
    ).toBe(1);
    // The API key's job: awaiting its file, and cancelled from here.
    const waitingRow = row(waitingId);
    expect(await waitingRow.locator('.badge').textContent()).toBe('awaiting its file');
    expect(await waitingRow.locator('td').nth(4).textContent()).toBe('test (API key)');
    await waitingRow.getByRole('button', { name: `Cancel ${waitingId}` }).click();
    await expect.poll(() => waitingRow.locator('.badge').textContent()).toBe('cancelled');
    await expect
      .poll(() => page.getByRole('status').textContent())
      .toContain(`Cancelled import (csv) ${waitingId}.`);
    expect(await waitingRow.getByRole('button').count()).toBe(0);
    expect((await jobs()).find((j) => j.id === waitingId)?.status).toBe('CANCELLED');
    // Narrowed by type.
    await page.getByLabel('Type').selectOption('EXPORT');
    await expect.poll(() => rows.count()).toBe(2);
  }, 60_000);

  it('cancels a running import from the panel: what it wrote stays, and the result says how far it got', async () => {
    const { page } = browser;
    await page.getByRole('link', { name: 'Records', exact: true }).click();
    await page.getByRole('heading', { name: 'Records' }).waitFor();
    const before = await countRecords();
    await openImport(page, 'more.csv', contactsCsv(ROWS, {}, 'more'));
    await page.getByRole('button', { name: /^Import all rows/ }).click();
    const bar = page.getByRole('progressbar', { name: 'Rows imported' });
    await expect.poll(() => bar.getAttribute('max'), { timeout: 30_000 }).toBe(String(ROWS));
    await page.getByRole('button', { name: 'Cancel the import' }).click();
    const result = page.getByRole('region', { name: 'Import result' });
    await result.waitFor({ timeout: 30_000 });
    const said = (await result.getByText(/^Cancelled after/).textContent()) ?? '';
    const done = number(/^Cancelled after ([\d,]+) of/.exec(said)?.[1] ?? null);
    expect(done).toBeLessThan(ROWS);
    expect(said).toBe(
      `Cancelled after ${done.toLocaleString('en-US')} of ${ROWS.toLocaleString('en-US')} rows: the rows before that were written, the others were not.`,
    );
    const created = number(await page.getByTestId('created').textContent());
    expect(created).toBe(done);
    expect(number(await page.getByTestId('refused').textContent())).toBe(0);
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Import cancelled after');
    expect(await page.getByRole('button', { name: 'Cancel the import' }).count()).toBe(0);
    // The server holds the rows the job wrote before it stopped, and no more.
    expect(await countRecords()).toBe(before + created);
    expect((await jobs('type=IMPORT'))[0]?.status).toBe('CANCELLED');
    await page.getByRole('button', { name: 'Close' }).click();
  }, 90_000);
});

import { ensureBuilt } from '@crm/web/build';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, browserUnavailable, signedInBrowser } from '../testing/browser.ts';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';

/**
 * Relations in Chromium (docs/web-app.md, "Folders and fields", "Relations"): a relation and
 * its inverse defined in the folder settings, relation cells of the records table edited with
 * the search, a company's page with its people (and their link labels), deals and tasks, a
 * deal's participants, a CSV column mapped to a relation by title, and the removal of a
 * relation that still links records.
 */

const unavailable = browserUnavailable();
if (unavailable) console.warn(`The browser tests (relations.test.ts) are skipped: ${unavailable}.`);

let app: TestApp;
let ws: TestWorkspace;
let browser: Browser;
/** The folder "Companies", made on the settings page by the first test. */
let companiesId: string;
/** Record ids by title. */
const ids: Record<string, string> = {};

interface ApiRecord {
  id: string;
  title: string;
  data: Record<string, unknown>;
}

beforeAll(async () => {
  if (unavailable) return;
  await ensureBuilt({ log: () => {} });
  app = await startTestApp();
  ws = await app.createWorkspace({ name: 'Relations' });
  browser = await signedInBrowser(app, ws);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

async function api(method: string, path: string, body?: unknown, status?: number) {
  const res = await app.api(ws.apiKey, method, `/api/v1${path}`, body);
  if (status !== undefined) expect(res.status, res.text).toBe(status);
  return res.body;
}

async function createRecord(folderId: string, title: string, extra: Record<string, unknown> = {}) {
  const { data } = await api('POST', '/records', { folderId, title, ...extra }, 201);
  ids[title] = data.id;
  return data as ApiRecord;
}

async function getRecord(title: string): Promise<ApiRecord> {
  return (await api('GET', `/records/${ids[title]}`, undefined, 200)).data;
}

/** The status line says `text` (the app's one live region). */
async function said(page: Page, text: string) {
  await expect.poll(() => page.getByRole('status').textContent()).toContain(text);
}

/** The texts of a list's items, blanks collapsed. */
async function texts(list: Locator): Promise<string[]> {
  return (await list.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
}

/** A section of the record page, by its heading. */
function related(page: Page, field: string): Locator {
  return page.locator(`section.related[data-field="${field}"]`);
}

/** Picks the record titled `title` in the search labelled `label`, within `scope`. */
async function pick(scope: Page | Locator, label: string, search: string, title: string) {
  const box = scope.getByRole('combobox', { name: label });
  await box.fill(search);
  await scope.getByRole('option', { name: new RegExp(`^${title}`) }).click();
}

describe.skipIf(unavailable)('relations in Chromium', () => {
  it('defines a relation and its inverse in the folder settings, and changes its labels', async () => {
    const { page } = browser;
    await page.getByRole('link', { name: 'Folders and fields' }).click();
    await page.getByRole('heading', { name: 'Folders and fields' }).waitFor();
    await page.getByLabel('New folder').fill('Companies');
    await page.getByRole('button', { name: 'Create folder' }).click();
    await said(page, 'Created the folder “Companies”.');
    const folders = (await api('GET', '/folders', undefined, 200)).data as { id: string; name: string }[];
    companiesId = folders.find((f) => f.name === 'Companies')!.id;

    // People's plain text "Company" makes room for the relation of that name.
    await page.getByRole('navigation', { name: 'Folders' }).getByRole('button', { name: 'People' }).click();
    await page.getByRole('heading', { name: 'Fields of People' }).waitFor();
    await page.getByRole('button', { name: 'Remove the field Company' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove the field “Company”?' });
    await confirm.getByText('its values from every record of it').waitFor();
    await confirm.getByRole('button', { name: 'Remove field' }).click();
    await said(page, 'Removed the field “Company”.');
    await confirm.waitFor({ state: 'detached' });

    const form = page.getByRole('form', { name: 'Add a field to People' });
    await form.getByLabel('Label', { exact: true }).fill('Company');
    expect(await form.getByLabel('Key', { exact: true }).inputValue()).toBe('company');
    await form.getByLabel('Type').selectOption('RELATION');
    await form.getByLabel('Links to records of').selectOption({ label: 'Companies' });
    await form.getByLabel('Each record links to').selectOption('ONE');
    await form.getByLabel('Link labels (optional)').fill('Employee, Contractor');
    await form.getByLabel('Also add the paired field to Companies').check();
    await form.getByLabel('Paired field label (in Companies)').fill('People');
    expect(await form.getByLabel('Paired field key').inputValue()).toBe('people');
    await form.getByLabel('Each record of Companies links to').selectOption('MANY');
    await form.getByRole('button', { name: 'Add field' }).click();
    await said(page, 'Added the field “Company” to People and “People” to Companies.');
    const row = page.locator('.fields-table tr[data-field="company"]');
    const holds = row.locator('td').nth(2);
    expect(await holds.textContent()).toBe(
      'One record of Companies · labels: Employee, Contractor · paired with Companies › People',
    );

    // The pair is one change on the server: each field names the other.
    const people = (await api('GET', `/folders/${ws.folderId}`, undefined, 200)).data;
    const companies = (await api('GET', `/folders/${companiesId}`, undefined, 200)).data;
    expect(people.fields.find((f: { key: string }) => f.key === 'company')).toEqual({
      key: 'company',
      label: 'Company',
      type: 'RELATION',
      relation: {
        folderId: companiesId,
        cardinality: 'ONE',
        labels: ['Employee', 'Contractor'],
        inverseKey: 'people',
      },
    });
    expect(companies.fields).toEqual([
      {
        key: 'people',
        label: 'People',
        type: 'RELATION',
        relation: {
          folderId: ws.folderId,
          cardinality: 'MANY',
          labels: ['Employee', 'Contractor'],
          inverseKey: 'company',
        },
      },
    ]);

    // New labels reach both fields of the pair.
    await page.getByRole('button', { name: 'Change the field Company' }).click();
    const change = page.getByRole('form', { name: 'Change the field Company' });
    await change.getByLabel('Link labels').fill('Employee, Contractor, Founder');
    await change.getByRole('button', { name: 'Save field' }).click();
    await said(page, 'Saved the field “Company”.');
    await expect
      .poll(() => holds.textContent())
      .toBe(
        'One record of Companies · labels: Employee, Contractor, Founder · paired with Companies › People',
      );
    const after = (await api('GET', `/folders/${companiesId}`, undefined, 200)).data;
    expect(after.fields[0].relation.labels).toEqual(['Employee', 'Contractor', 'Founder']);
    await browser.screenshot('folder-settings');
  });

  it('shows relation cells as chips from one list call, and edits one with the search', async () => {
    const { page } = browser;
    for (const [title, email] of [
      ['Acme', 'hello@acme.example'],
      ['Globex', 'info@globex.example'],
      ['Initech', null],
      ['Umbrella', null],
    ] as const) {
      await createRecord(companiesId, title, email ? { email } : {});
    }
    // A second company named Umbrella: a name that matches two records.
    await api('POST', '/records', { folderId: companiesId, title: 'Umbrella' }, 201);
    // A ONE value may name its record by title or email instead of its id.
    await createRecord(ws.folderId, 'Ada Lovelace', { data: { company: { title: 'Acme' } } });
    await createRecord(ws.folderId, 'Grace Hopper', { data: { company: { email: 'INFO@globex.example' } } });
    await createRecord(ws.folderId, 'Linus Torvalds');
    expect((await getRecord('Ada Lovelace')).data.company).toBe(ids.Acme);
    expect((await getRecord('Grace Hopper')).data.company).toBe(ids.Globex);

    const lists: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/trpc/records.list')) lists.push(decodeURIComponent(request.url()));
    });
    await page.getByRole('link', { name: 'Records', exact: true }).click();
    await page.getByRole('navigation', { name: 'Folders' }).getByRole('button', { name: 'People' }).click();
    const cell = (title: string) =>
      page
        .locator('.records-table tbody tr')
        .filter({ has: page.getByRole('link', { name: title, exact: true }) })
        .locator('td[data-column="data.company"]');
    await cell('Ada Lovelace').getByRole('link', { name: 'Acme' }).waitFor();
    await cell('Grace Hopper').getByRole('link', { name: 'Globex' }).waitFor();
    // The linked records came with the page: one list call with expand, none per row.
    expect(lists.some((url) => url.includes('"expand":"company"'))).toBe(true);
    expect(lists.filter((url) => !url.includes('"folderId"'))).toEqual([]);

    // Enter on the cell's button opens the search; the record picked is saved at once.
    await page.getByRole('button', { name: 'Edit Company of Linus Torvalds: empty' }).press('Enter');
    await pick(page, 'Company of Linus Torvalds', 'Init', 'Initech');
    await said(page, 'Linked “Linus Torvalds” to “Initech” as its Company.');
    await cell('Linus Torvalds').getByRole('link', { name: 'Initech' }).waitFor();
    expect((await getRecord('Linus Torvalds')).data.company).toBe(ids.Initech);

    // Escape gives up; Clear saves none.
    await page.getByRole('button', { name: 'Edit Company of Grace Hopper: Globex' }).dblclick();
    await page.getByRole('combobox', { name: 'Company of Grace Hopper' }).press('Escape');
    await page.getByRole('combobox', { name: 'Company of Grace Hopper' }).waitFor({ state: 'detached' });
    expect((await getRecord('Grace Hopper')).data.company).toBe(ids.Globex);
    await page.getByRole('button', { name: 'Edit Company of Grace Hopper: Globex' }).press('Enter');
    await page.getByRole('button', { name: 'Clear' }).click();
    await said(page, 'Cleared Company of “Grace Hopper”.');
    await cell('Grace Hopper').getByRole('link').waitFor({ state: 'detached' });
    expect((await getRecord('Grace Hopper')).data.company).toBeUndefined();

    // A filter on the relation: the records linked to the company picked.
    await page.getByText('Add a filter').click();
    await page.getByLabel('Filter field').selectOption({ label: 'Company' });
    await page.getByLabel('Operator').selectOption('eq');
    await pick(page, 'Value', 'Acm', 'Acme');
    await page.getByRole('button', { name: 'Add filter' }).click();
    await page.getByRole('button', { name: 'Remove filter: Company is Acme' }).waitFor();
    await expect
      .poll(() => page.locator('.records-table tbody td[data-column="title"] a').allTextContents())
      .toEqual(['Ada Lovelace']);
    await page.getByRole('button', { name: 'Remove filter: Company is Acme' }).click();
    await cell('Linus Torvalds').waitFor();

    // The chip opens the linked record.
    await cell('Ada Lovelace').getByRole('link', { name: 'Acme' }).click();
    await page.getByRole('heading', { name: 'Acme', exact: true }).waitFor();
    expect(page.url()).toBe(`${app.url}/records/${ids.Acme}`);
  });

  it('shows a relation to several records as chips and "+N" from one batch, links one and unlinks one', async () => {
    const { page } = browser;
    // Initech's people: Linus (linked above) and four more, so its cell has more than 3.
    for (const title of ['Katherine Johnson', 'Dorothy Vaughan', 'Mary Jackson', 'Margaret Hamilton']) {
      await createRecord(ws.folderId, title, { data: { company: ids.Initech } });
    }
    const related: string[] = [];
    const listen = (request: { url(): string }) => {
      const url = new URL(request.url());
      if (url.pathname.includes('records.related')) related.push(`${url.pathname}?${url.searchParams}`);
    };
    page.on('request', listen);
    await page.getByRole('link', { name: 'Records', exact: true }).click();
    await page
      .getByRole('navigation', { name: 'Folders' })
      .getByRole('button', { name: 'Companies' })
      .click();
    const cell = (title: string) =>
      page
        .locator('.records-table tbody tr')
        .filter({ has: page.getByRole('link', { name: title, exact: true }) })
        .locator('td[data-column="data.people"]');
    const chips = (title: string) => texts(cell(title).locator('.cell-chips').getByRole('link'));
    await expect
      .poll(() => chips('Initech'))
      .toEqual(['Margaret Hamilton', 'Mary Jackson', 'Dorothy Vaughan', '+2']);
    expect(await chips('Acme')).toEqual(['Ada Lovelace']);
    await cell('Initech').getByRole('link', { name: '2 more: all People of Initech' }).waitFor();
    expect(await cell('Globex').locator('.cell-chips').count()).toBe(0);
    // One related read per row (the list's expand takes ONE fields only), all five in one request.
    const rows = await page.locator('.records-table tbody tr').count();
    expect(rows).toBe(5);
    expect(related).toHaveLength(1);
    expect(related[0]).toContain(`/trpc/${Array(rows).fill('records.related').join(',')}?batch=1`);
    page.off('request', listen);

    // + opens the search of ONE cells; the record picked is linked at once, and Katherine's
    // company (the ONE side of the pair) follows.
    await page.getByRole('button', { name: 'Add to People of Globex' }).press('Enter');
    await pick(page, 'Add to People of Globex', 'Kath', 'Katherine Johnson');
    await said(page, 'Added “Katherine Johnson” to People of “Globex”.');
    await expect.poll(() => chips('Globex')).toEqual(['Katherine Johnson']);
    await expect
      .poll(() => chips('Initech'))
      .toEqual(['Margaret Hamilton', 'Mary Jackson', 'Dorothy Vaughan', '+1']);
    expect((await getRecord('Katherine Johnson')).data.company).toBe(ids.Globex);
    await browser.screenshot('records-relations', page, { fullPage: false });

    // Escape gives up; a chip's × unlinks its record.
    await page.getByRole('button', { name: 'Add to People of Acme' }).dblclick();
    await page.getByRole('combobox', { name: 'Add to People of Acme' }).press('Escape');
    await page.getByRole('combobox', { name: 'Add to People of Acme' }).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Remove Katherine Johnson from People of Globex' }).click();
    await said(page, 'Removed “Katherine Johnson” from People of “Globex”.');
    await cell('Globex').locator('.cell-chips').waitFor({ state: 'detached' });
    expect((await getRecord('Katherine Johnson')).data.company).toBeUndefined();
    expect((await api('GET', `/records/${ids.Acme}/related/people`, undefined, 200)).data).toHaveLength(1);

    await page.locator('.records-table').getByRole('link', { name: 'Acme', exact: true }).click();
    await page.getByRole('heading', { name: 'Acme', exact: true }).waitFor();
  });

  it('lists related records with their labels on a company page, with its deals and tasks', async () => {
    const { page } = browser;
    const pipeline = (await api('GET', '/pipelines', undefined, 200)).data[0];
    const rollout = await api(
      'POST',
      '/deals',
      { pipelineId: pipeline.id, title: 'Acme rollout', amount: 48000, recordId: ids.Acme },
      201,
    );
    const pilot = await api(
      'POST',
      '/deals',
      { pipelineId: pipeline.id, title: 'Globex pilot', amount: 9500, recordId: ids.Globex },
      201,
    );
    ids['Globex pilot'] = pilot.data.id;
    await api('POST', `/deals/${pilot.data.id}/links`, { to: ids.Acme, label: 'Reseller' }, 201);
    await api('POST', '/tasks', { title: 'Call Acme about the renewal', recordId: ids.Acme }, 201);
    const demo = await api('POST', '/tasks', { title: 'Prepare the demo', recordId: ids.Globex }, 201);
    await api('POST', `/tasks/${demo.data.id}/links`, { to: ids.Acme, label: 'Audience' }, 201);
    // Ada works for Acme as a founder (the label is the link's, read from either side).
    await api(
      'POST',
      `/records/${ids['Ada Lovelace']}/links`,
      { field: 'company', to: ids.Acme, label: 'Founder' },
      200,
    );
    await page.reload();
    await page.getByRole('heading', { name: 'Acme', exact: true }).waitFor();

    const people = related(page, 'people');
    // The linked records, not the one picked in the form below them.
    const linked = people.getByRole('list', { name: 'People' });
    await linked.getByRole('link', { name: 'Ada Lovelace' }).waitFor();
    expect(await people.getByLabel('Label of Ada Lovelace').inputValue()).toBe('Founder');
    // Grace joins as an employee: her ONE field follows.
    await pick(people, 'Add to People', 'Grace', 'Grace Hopper');
    await people.getByLabel('Label for People').selectOption('Employee');
    await people.getByRole('button', { name: 'Link', exact: true }).click();
    await said(page, 'Linked “Grace Hopper” as People (Employee).');
    await linked.getByRole('link', { name: 'Grace Hopper' }).waitFor();
    expect((await getRecord('Grace Hopper')).data.company).toBe(ids.Acme);
    // Linus moves from Initech to Acme (his company is one), then leaves again.
    await pick(people, 'Add to People', 'Linus', 'Linus Torvalds');
    await people.getByRole('button', { name: 'Link', exact: true }).click();
    await said(page, 'Linked “Linus Torvalds” as People.');
    await linked.getByRole('link', { name: 'Linus Torvalds' }).waitFor();
    expect((await getRecord('Linus Torvalds')).data.company).toBe(ids.Acme);
    await people.getByRole('button', { name: 'Remove Linus Torvalds from People' }).click();
    await said(page, 'Removed “Linus Torvalds” from People of “Acme”.');
    await linked.getByRole('link', { name: 'Linus Torvalds' }).waitFor({ state: 'detached' });
    expect((await getRecord('Linus Torvalds')).data.company).toBeUndefined();
    // A label changed in place.
    await people.getByLabel('Label of Grace Hopper').selectOption('Contractor');
    await said(page, 'Label changed to Contractor.');
    const listed = await api('GET', `/records/${ids.Acme}/related/people`, undefined, 200);
    expect(
      listed.data
        .map((r: { title: string; link: { label: string | null } }) => [r.title, r.link.label])
        .sort(),
    ).toEqual([
      ['Ada Lovelace', 'Founder'],
      ['Grace Hopper', 'Contractor'],
    ]);

    // The deals and tasks the company is part of, as the primary record or a participant.
    const deals = page.getByRole('region', { name: 'Deals' });
    await deals.getByRole('button', { name: 'Acme rollout' }).waitFor();
    expect((await texts(deals.getByRole('listitem'))).sort()).toEqual([
      'Acme rollout Lead · $48,000.00 · primary record',
      'Globex pilot Lead · $9,500.00 · Reseller',
    ]);
    const tasks = page.getByRole('region', { name: 'Tasks' });
    await tasks.getByText('Prepare the demo').waitFor();
    await tasks.getByText('Call Acme about the renewal').waitFor();
    // Each with the label of its link to Acme, as the deals above.
    expect((await texts(tasks.getByRole('listitem'))).sort()).toEqual([
      'Call Acme about the renewal todo · medium priority',
      'Prepare the demo todo · medium priority · Audience',
    ]);
    expect(rollout.data.recordId).toBe(ids.Acme);
    await browser.screenshot('record-relations');

    // A person's page shows the company through the ONE field, with the same label, and its
    // timeline names the records the field linked to.
    await linked.getByRole('link', { name: 'Grace Hopper' }).click();
    await page.getByRole('heading', { name: 'Grace Hopper', exact: true }).waitFor();
    const company = related(page, 'company');
    await company.getByRole('link', { name: 'Acme' }).waitFor();
    expect(await company.getByLabel('Label of Acme').inputValue()).toBe('Contractor');
    await page
      .getByRole('list', { name: 'Timeline, newest first' })
      .getByText('Company cleared (was Globex)')
      .waitFor();
    await page.goBack();
    await page.getByRole('heading', { name: 'Acme', exact: true }).waitFor();
  });

  it('shows a deal’s participants with their labels, adds one and removes one', async () => {
    const { page } = browser;
    await page.getByRole('region', { name: 'Deals' }).getByRole('button', { name: 'Globex pilot' }).click();
    const dialog = page.getByRole('dialog', { name: 'Globex pilot' });
    const participants = dialog.locator('.related-list li');
    await participants.first().waitFor();
    expect(await texts(participants)).toEqual([
      'Globex Companies primary Remove',
      'Acme Companies Reseller Remove',
    ]);
    await pick(dialog, 'Record', 'Ada', 'Ada Lovelace');
    await dialog.getByLabel('Label (optional)').fill('Decision maker');
    await dialog.getByRole('button', { name: 'Add to the deal' }).click();
    await said(page, 'Added “Ada Lovelace” to “Globex pilot” as Decision maker.');
    await expect.poll(() => texts(participants)).toHaveLength(3);
    expect((await texts(participants))[2]).toBe('Ada Lovelace People Decision maker Remove');
    await browser.screenshot('deal-participants', page, { fullPage: false });
    await dialog.getByRole('button', { name: 'Remove Acme from the deal' }).click();
    await said(page, 'Removed “Acme” from “Globex pilot”.');
    await expect.poll(() => texts(participants)).toHaveLength(2);
    const links = await api('GET', `/deals/${ids['Globex pilot']}/links`, undefined, 200);
    expect(
      links.data.map((r: { title: string; link: { label: string | null; primary: boolean } }) => [
        r.title,
        r.link.label,
        r.link.primary,
      ]),
    ).toEqual([
      ['Globex', null, true],
      ['Ada Lovelace', 'Decision maker', false],
    ]);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    // Acme is no longer part of the pilot.
    await page
      .getByRole('region', { name: 'Deals' })
      .getByRole('button', { name: 'Globex pilot' })
      .waitFor({ state: 'detached' });

    // The board opens the same dialog from a deal's title.
    await page.getByRole('link', { name: 'Pipeline' }).click();
    await page
      .getByRole('region', { name: 'Stage Lead' })
      .getByRole('button', { name: 'Globex pilot' })
      .click();
    await dialog.getByRole('link', { name: 'Ada Lovelace' }).waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('imports a column mapped to a relation by title and reports the names that match none or several', async () => {
    const { page } = browser;
    await page.getByRole('link', { name: 'Records', exact: true }).click();
    await page.getByRole('navigation', { name: 'Folders' }).getByRole('button', { name: 'People' }).click();
    await page.getByRole('button', { name: 'Import CSV' }).click();
    const csv = [
      'Name,Email,Company',
      'Edsger Dijkstra,edsger@import.example,Acme',
      'Barbara Liskov,barbara@import.example,Nowhere Inc',
      'Ken Thompson,ken@import.example,Umbrella',
      'Dennis Ritchie,,Initech',
      '',
    ].join('\r\n');
    await page
      .getByLabel('CSV file')
      .setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByRole('heading', { name: 'Preview' }).waitFor();
    // The header names the relation: its records are named by title unless chosen otherwise.
    expect(await page.getByLabel('Column “Company”').inputValue()).toBe('data.company:title');
    // The names are looked up in Companies: one matches none, one matches two records.
    await expect
      .poll(() => page.getByTestId('preview-summary').textContent())
      .toBe('2 of 4 rows would be refused as they are.');
    const none = 'data.company no live record of folder Companies has the title "Nowhere Inc"';
    const several =
      'data.company several live records of folder Companies have the title "Umbrella"; give the id of one';
    expect(await texts(page.locator('.would-refuse li'))).toEqual([`Row 3: ${none}`, `Row 4: ${several}`]);

    await page.getByRole('button', { name: 'Import 4 rows' }).click();
    await page.getByRole('region', { name: 'Import result' }).waitFor();
    expect(await page.getByTestId('created').textContent()).toBe('2');
    expect(await page.getByTestId('refused').textContent()).toBe('2');
    // The server's reasons, word for word what the preview said.
    expect(await texts(page.locator('table.refused tbody tr'))).toEqual([`3 ${none}`, `4 ${several}`]);
    await page.getByRole('region', { name: 'Import result' }).scrollIntoViewIfNeeded();
    await browser.screenshot('records-import-relations');
    const imported = (
      await api(
        'GET',
        `/records?folderId=${ws.folderId}&filter[company]=${ids.Acme}&pageSize=50`,
        undefined,
        200,
      )
    ).data.map((r: ApiRecord) => r.title);
    expect(imported).toContain('Edsger Dijkstra');
    const dennis = (
      await api('GET', `/records?folderId=${ws.folderId}&filter[title]=Dennis%20Ritchie`, undefined, 200)
    ).data[0];
    expect(dennis.data.company).toBe(ids.Initech);
    await page.getByRole('button', { name: 'Close' }).click();
  });

  it('removes a relation that still links records only with its links, after saying so', async () => {
    const { page } = browser;
    await page.getByRole('link', { name: 'Folders and fields' }).click();
    await page
      .getByRole('navigation', { name: 'Folders' })
      .getByRole('button', { name: 'Companies' })
      .click();
    const form = page.getByRole('form', { name: 'Add a field to Companies' });
    await form.getByLabel('Label', { exact: true }).fill('Partners');
    await form.getByLabel('Type').selectOption('RELATION');
    await form.getByLabel('Links to records of').selectOption({ label: 'Companies (this folder)' });
    await form.getByLabel('Each record links to').selectOption('MANY');
    await form.getByRole('button', { name: 'Add field' }).click();
    await said(page, 'Added the field “Partners” to Companies.');
    await api('POST', `/records/${ids.Acme}/links`, { field: 'partners', to: ids.Globex }, 201);

    await page.getByRole('button', { name: 'Remove the field Partners' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove the field “Partners”?' });
    await confirm.getByRole('button', { name: 'Remove field' }).click();
    await confirm.getByText('Partners still links records, so the server kept it').waitFor();
    let fields = (await api('GET', `/folders/${companiesId}`, undefined, 200)).data.fields;
    expect(fields.map((f: { key: string }) => f.key)).toEqual(['people', 'partners']);
    await confirm.getByRole('button', { name: 'Remove with its links' }).click();
    await said(page, 'Removed the field “Partners” and its links.');
    await confirm.waitFor({ state: 'detached' });
    fields = (await api('GET', `/folders/${companiesId}`, undefined, 200)).data.fields;
    expect(fields.map((f: { key: string }) => f.key)).toEqual(['people']);
    await page.locator('.fields-table tr[data-field="partners"]').waitFor({ state: 'detached' });
  });
});

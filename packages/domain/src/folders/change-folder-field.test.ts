import type { FieldDefinition } from '@crm/db/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecord } from '../records/create-record.ts';
import { findRecords } from '../records/find-records.ts';
import { trashRecord } from '../records/trash-record.ts';
import type { Actor } from '../shared/actor.ts';
import { searchTextOf } from '../shared/search-text.ts';
import { expectDomainError, newWorkspace, openTestDb, type TestDb } from '../testing/fixtures.ts';
import { changeFolderField } from './change-folder-field.ts';
import { createFolder } from './create-folder.ts';
import { getFolder } from './get-folder.ts';

let t: TestDb;

beforeAll(async () => {
  t = await openTestDb();
});
afterAll(() => t?.close());

async function folderWith(actor: Actor, fields: FieldDefinition[]) {
  return createFolder(t.db, actor, { name: 'F', fields });
}

const add = (actor: Actor, folderId: string, title: string, data: Record<string, unknown>) =>
  createRecord(t.db, actor, { folderId, title, data }).then((r) => r.record);

const found = async (actor: Actor, q: string, trashed?: 'true') =>
  (await findRecords(t.db, actor, { q, ...(trashed ? { trashed } : {}) })).data.map((r) => r.title).sort();

describe('changeFolderField', () => {
  it('answers a key that is not a field of the folder with 404, also with a new type', async () => {
    const { actor } = await newWorkspace(t.db);
    const folder = await folderWith(actor, [{ key: 'score', label: 'Score', type: 'NUMBER' }]);
    for (const key of [' ', 'no such key', 'missing']) {
      await expectDomainError(
        changeFolderField(t.db, actor, { id: folder.id, key, type: 'NUMBER' }),
        'NOT_FOUND',
      );
    }
  });

  it('changes a label without touching values', async () => {
    const { actor, peopleFolderId } = await newWorkspace(t.db);
    const rec = await add(actor, peopleFolderId, 'Ada', { company: 'Engines' });
    const folder = await changeFolderField(t.db, actor, {
      id: peopleFolderId,
      key: 'company',
      label: 'Employer',
    });
    expect(folder.fields[0]).toEqual({ key: 'company', label: 'Employer', type: 'TEXT' });
    const rows = await t.query('select data from records where id = $1', [rec.id]);
    expect(rows).toEqual([{ data: { company: 'Engines' } }]);
  });

  it('refuses a type change while a stored value does not fit, even one in Trash', async () => {
    const { actor } = await newWorkspace(t.db);
    const folder = await folderWith(actor, [{ key: 'code', label: 'Code', type: 'TEXT' }]);
    await add(actor, folder.id, 'Live', { code: 'https://ok.example' });
    const trashed = await add(actor, folder.id, 'Trashed', { code: 'also text' });
    await trashRecord(t.db, actor, trashed.id);
    const error = await expectDomainError(
      changeFolderField(t.db, actor, { id: folder.id, key: 'code', type: 'URL' }),
      'VALIDATION_FAILED',
    );
    expect(error.message).toContain('"also text"');
    expect((await getFolder(t.db, actor, folder.id)).fields[0]?.type).toBe('TEXT');
  });

  it('accepts a type change when every stored value fits', async () => {
    const { actor } = await newWorkspace(t.db);
    const folder = await folderWith(actor, [{ key: 'site', label: 'Site', type: 'TEXT' }]);
    await add(actor, folder.id, 'A', { site: 'https://a.example' });
    const b = await add(actor, folder.id, 'B', { site: 'http://b.example/path' });
    await trashRecord(t.db, actor, b.id);
    const changed = await changeFolderField(t.db, actor, { id: folder.id, key: 'site', type: 'URL' });
    expect(changed.fields).toEqual([{ key: 'site', label: 'Site', type: 'URL' }]);
  });

  it('refuses TEXT to NUMBER while text is stored and accepts it once the values are cleared', async () => {
    const { actor } = await newWorkspace(t.db);
    const folder = await folderWith(actor, [{ key: 'score', label: 'Score', type: 'TEXT' }]);
    const rec = await add(actor, folder.id, 'Ada', { score: '42' });
    await expectDomainError(
      changeFolderField(t.db, actor, { id: folder.id, key: 'score', type: 'NUMBER' }),
      'VALIDATION_FAILED',
    );
    expect(await found(actor, '42')).toEqual(['Ada']);
    await t.query(`update records set data = '{}' where id = $1`, [rec.id]);
    const changed = await changeFolderField(t.db, actor, { id: folder.id, key: 'score', type: 'NUMBER' });
    expect(changed.fields[0]?.type).toBe('NUMBER');
    // A NUMBER field is not searched.
    await add(actor, folder.id, 'Grace', { score: 4242 });
    expect(await found(actor, '4242')).toEqual([]);
  });

  it('refuses NUMBER to TEXT while numbers are stored (a number is not text)', async () => {
    const { actor } = await newWorkspace(t.db);
    const folder = await folderWith(actor, [{ key: 'score', label: 'Score', type: 'NUMBER' }]);
    await add(actor, folder.id, 'Ada', { score: 7 });
    await expectDomainError(
      changeFolderField(t.db, actor, { id: folder.id, key: 'score', type: 'TEXT' }),
      'VALIDATION_FAILED',
    );
  });

  it('makes a field searchable when it becomes TEXT and unsearchable when it stops being TEXT', async () => {
    const { actor, peopleFolderId } = await newWorkspace(t.db);
    await add(actor, peopleFolderId, 'Ada', { lifecycle: 'Customer', company: 'Zed' });
    const gone = await add(actor, peopleFolderId, 'Grace', { lifecycle: 'Customer' });
    await trashRecord(t.db, actor, gone.id);
    expect(await found(actor, 'customer')).toEqual([]);

    await changeFolderField(t.db, actor, { id: peopleFolderId, key: 'lifecycle', type: 'TEXT' });
    expect(await found(actor, 'customer')).toEqual(['Ada']);
    expect(await found(actor, 'customer', 'true')).toEqual(['Grace']);

    await changeFolderField(t.db, actor, {
      id: peopleFolderId,
      key: 'company',
      type: 'SELECT',
      options: ['Zed'],
    });
    expect(await found(actor, 'zed')).toEqual([]);
    await changeFolderField(t.db, actor, {
      id: peopleFolderId,
      key: 'lifecycle',
      type: 'SELECT',
      options: ['Lead', 'Customer'],
    });
    expect(await found(actor, 'customer')).toEqual([]);
    expect(await found(actor, 'customer', 'true')).toEqual([]);
  });

  it('recomputes search_text in the database exactly as searchTextOf does, lower-cased by PostgreSQL', async () => {
    const { actor, peopleFolderId } = await newWorkspace(t.db);
    // Latin letters with accents lower-case alike in both; the Turkish dotted İ and the Greek final
    // sigma do not (JS lower-cases by context, Postgres letter by letter): see the test report.
    await add(actor, peopleFolderId, 'ÉCOLE Ünïcode ØRE', { company: 'MÜNCHEN Straße', lifecycle: 'Lead' });
    await createRecord(t.db, actor, {
      folderId: peopleFolderId,
      title: 'Mixed',
      email: 'A@B.io',
      phone: 'X1',
    });
    const folder = await changeFolderField(t.db, actor, {
      id: peopleFolderId,
      key: 'lifecycle',
      type: 'TEXT',
    });
    const rows = await t.query<{
      title: string;
      email: string | null;
      phone: string | null;
      data: Record<string, unknown>;
      search_text: string;
    }>('select title, email, phone, data, search_text from records where folder_id = $1', [peopleFolderId]);
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      const [{ text } = { text: '' }] = await t.query<{ text: string }>('select lower($1::text) as text', [
        searchTextOf(row, folder.fields),
      ]);
      expect(row.search_text).toBe(text);
    }
  });

  it('refuses removing a SELECT option in use (Trash included) and accepts removing an unused one', async () => {
    const { actor, peopleFolderId } = await newWorkspace(t.db);
    const rec = await add(actor, peopleFolderId, 'Ada', { lifecycle: 'Churned' });
    await trashRecord(t.db, actor, rec.id);
    const error = await expectDomainError(
      changeFolderField(t.db, actor, { id: peopleFolderId, key: 'lifecycle', options: ['Lead', 'Customer'] }),
      'VALIDATION_FAILED',
    );
    expect(error.message).toContain('"Churned"');
    const changed = await changeFolderField(t.db, actor, {
      id: peopleFolderId,
      key: 'lifecycle',
      options: ['Lead', 'Churned'],
    });
    expect(changed.fields[1]).toEqual({
      key: 'lifecycle',
      label: 'Lifecycle',
      type: 'SELECT',
      options: ['Lead', 'Churned'],
    });
  });

  it('refuses a SELECT without options and options on a TEXT field', async () => {
    const { actor, peopleFolderId } = await newWorkspace(t.db);
    await expectDomainError(
      changeFolderField(t.db, actor, { id: peopleFolderId, key: 'company', type: 'SELECT' }),
      'VALIDATION_FAILED',
    );
    await expectDomainError(
      changeFolderField(t.db, actor, { id: peopleFolderId, key: 'company', options: ['x'] }),
      'VALIDATION_FAILED',
    );
  });

  it('answers NOT_FOUND for an unknown field', async () => {
    const { actor, peopleFolderId } = await newWorkspace(t.db);
    await expectDomainError(
      changeFolderField(t.db, actor, { id: peopleFolderId, key: 'nope', label: 'X' }),
      'NOT_FOUND',
    );
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecord } from '../records/create-record.ts';
import { findRecords } from '../records/find-records.ts';
import { expectDomainError, newWorkspace, openTestDb, type TestDb } from '../testing/fixtures.ts';
import { addFolderField } from './add-folder-field.ts';
import { createFolder } from './create-folder.ts';
import { findFolders } from './find-folders.ts';
import { getFolder } from './get-folder.ts';
import { removeFolderField } from './remove-folder-field.ts';
import { renameFolder } from './rename-folder.ts';

let t: TestDb;

beforeAll(async () => {
  t = await openTestDb();
});
afterAll(() => t?.close());

describe('createFolder', () => {
  it('creates a CUSTOM folder with its fields in order', async () => {
    const { actor } = await newWorkspace(t.db);
    const folder = await createFolder(t.db, actor, {
      name: 'Companies',
      fields: [
        { key: 'domain', label: 'Domain', type: 'URL' },
        { key: 'size', label: 'Size', type: 'SELECT', options: ['S', 'M', 'L'] },
      ],
    });
    expect(folder).toMatchObject({
      name: 'Companies',
      type: 'CUSTOM',
      fields: [
        { key: 'domain', label: 'Domain', type: 'URL' },
        { key: 'size', label: 'Size', type: 'SELECT', options: ['S', 'M', 'L'] },
      ],
    });
    expect(folder.fields[0]).not.toHaveProperty('options');
    expect(await getFolder(t.db, actor, folder.id)).toEqual(folder);
  });

  it.each(['SELECT', 'MULTI_SELECT'] as const)('refuses a %s field without options', async (type) => {
    const { actor } = await newWorkspace(t.db);
    const before = (await findFolders(t.db, actor, {})).data.length;
    const error = await expectDomainError(
      createFolder(t.db, actor, { name: 'Bad', fields: [{ key: 'size', label: 'Size', type }] }),
      'VALIDATION_FAILED',
    );
    expect(error.details?.[0]?.path).toBe('options');
    await expectDomainError(
      createFolder(t.db, actor, { name: 'Bad', fields: [{ key: 'size', label: 'Size', type, options: [] }] }),
      'VALIDATION_FAILED',
    );
    expect((await findFolders(t.db, actor, {})).data).toHaveLength(before);
  });

  it('refuses options on a field type that has none', async () => {
    const { actor } = await newWorkspace(t.db);
    await expectDomainError(
      createFolder(t.db, actor, {
        name: 'Bad',
        fields: [{ key: 'n', label: 'N', type: 'TEXT', options: ['x'] }],
      }),
      'VALIDATION_FAILED',
    );
  });
});

describe('renameFolder', () => {
  it('changes the name and keeps the fields', async () => {
    const { actor, peopleFolderId } = await newWorkspace(t.db);
    const before = await getFolder(t.db, actor, peopleFolderId);
    const renamed = await renameFolder(t.db, actor, { id: peopleFolderId, name: 'Contacts' });
    expect(renamed.name).toBe('Contacts');
    expect(renamed.fields).toEqual(before.fields);
    expect((await getFolder(t.db, actor, peopleFolderId)).name).toBe('Contacts');
  });

  it('answers NOT_FOUND for an unknown folder', async () => {
    const { actor } = await newWorkspace(t.db);
    await expectDomainError(
      renameFolder(t.db, actor, { id: 'fld_00000000000000000000000000', name: 'X' }),
      'NOT_FOUND',
    );
  });
});

describe('addFolderField', () => {
  it('appends the field so records can use it', async () => {
    const { actor, peopleFolderId } = await newWorkspace(t.db);
    const folder = await addFolderField(t.db, actor, {
      id: peopleFolderId,
      key: 'city',
      label: 'City',
      type: 'TEXT',
    });
    expect(folder.fields.map((f) => f.key)).toEqual(['company', 'lifecycle', 'city']);
    const { record } = await createRecord(t.db, actor, {
      folderId: peopleFolderId,
      title: 'Ada',
      data: { city: 'London' },
    });
    expect(record.data).toEqual({ city: 'London' });
  });

  it('refuses a key the folder already has', async () => {
    const { actor, peopleFolderId } = await newWorkspace(t.db);
    const error = await expectDomainError(
      addFolderField(t.db, actor, { id: peopleFolderId, key: 'company', label: 'Again', type: 'NUMBER' }),
      'VALIDATION_FAILED',
    );
    expect(error.details?.[0]?.path).toBe('key');
    const folder = await getFolder(t.db, actor, peopleFolderId);
    expect(folder.fields.find((f) => f.key === 'company')).toEqual({
      key: 'company',
      label: 'Company',
      type: 'TEXT',
    });
  });

  it('refuses a SELECT field without options', async () => {
    const { actor, peopleFolderId } = await newWorkspace(t.db);
    await expectDomainError(
      addFolderField(t.db, actor, { id: peopleFolderId, key: 'size', label: 'Size', type: 'SELECT' }),
      'VALIDATION_FAILED',
    );
  });
});

describe('removeFolderField', () => {
  it('removes the values from every record of the folder, Trash included, and from search', async () => {
    const { actor, peopleFolderId } = await newWorkspace(t.db);
    const live = await createRecord(t.db, actor, {
      folderId: peopleFolderId,
      title: 'Ada',
      data: { company: 'Zebracorp', lifecycle: 'Lead' },
    });
    const trashed = await createRecord(t.db, actor, {
      folderId: peopleFolderId,
      title: 'Grace',
      data: { company: 'Zebracorp' },
    });
    await t.query(`update records set trashed_at = now() where id = $1`, [trashed.record.id]);
    expect((await findRecords(t.db, actor, { q: 'zebra' })).data).toHaveLength(1);

    const folder = await removeFolderField(t.db, actor, { id: peopleFolderId, key: 'company' });
    expect(folder.fields.map((f) => f.key)).toEqual(['lifecycle']);
    const rows = await t.query<{ id: string; data: Record<string, unknown>; search_text: string }>(
      'select id, data, search_text from records where folder_id = $1 order by id',
      [peopleFolderId],
    );
    expect(rows).toEqual([
      { id: live.record.id, data: { lifecycle: 'Lead' }, search_text: 'ada' },
      { id: trashed.record.id, data: {}, search_text: 'grace' },
    ]);
    expect((await findRecords(t.db, actor, { q: 'zebra' })).data).toEqual([]);
    expect((await findRecords(t.db, actor, { q: 'zebra', trashed: 'true' })).data).toEqual([]);
  });

  it('leaves records of other folders alone', async () => {
    const { actor, peopleFolderId } = await newWorkspace(t.db);
    const other = await createFolder(t.db, actor, {
      name: 'Other',
      fields: [{ key: 'company', label: 'Company', type: 'TEXT' }],
    });
    const kept = await createRecord(t.db, actor, {
      folderId: other.id,
      title: 'K',
      data: { company: 'Keepco' },
    });
    await removeFolderField(t.db, actor, { id: peopleFolderId, key: 'company' });
    expect((await findRecords(t.db, actor, { q: 'keepco' })).data.map((r) => r.id)).toEqual([kept.record.id]);
  });

  it('answers NOT_FOUND for a field the folder does not have', async () => {
    const { actor, peopleFolderId } = await newWorkspace(t.db);
    await expectDomainError(removeFolderField(t.db, actor, { id: peopleFolderId, key: 'nope' }), 'NOT_FOUND');
  });
});

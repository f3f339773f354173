import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../shared/actor.ts';
import {
  expectDomainError,
  newFolderWithAllTypes,
  newWorkspace,
  openTestDb,
  type TestDb,
} from '../testing/fixtures.ts';
import { createRecord } from './create-record.ts';
import { findRecords } from './find-records.ts';
import { trashRecord } from './trash-record.ts';

let t: TestDb;

beforeAll(async () => {
  t = await openTestDb();
});
afterAll(() => t?.close());

async function titles(actor: Actor, input: Parameters<typeof findRecords>[2]) {
  return (await findRecords(t.db, actor, input)).data.map((r) => r.title).sort();
}

describe('findRecords filters', () => {
  it('filters by folder', async () => {
    const { actor, peopleFolderId } = await newWorkspace(t.db);
    const other = await newFolderWithAllTypes(t.db, actor);
    await createRecord(t.db, actor, { folderId: peopleFolderId, title: 'In people' });
    await createRecord(t.db, actor, { folderId: other.id, title: 'In other' });
    expect(await titles(actor, { folderId: peopleFolderId })).toEqual(['In people']);
    expect(await titles(actor, { folderId: other.id })).toEqual(['In other']);
    expect(await titles(actor, {})).toEqual(['In other', 'In people']);
    await expectDomainError(
      findRecords(t.db, actor, { folderId: 'fld_00000000000000000000000000' }),
      'NOT_FOUND',
    );
  });

  it('searches title, email, phone and TEXT values case-insensitively, but not SELECT values', async () => {
    const { actor } = await newWorkspace(t.db);
    const folder = await newFolderWithAllTypes(t.db, actor);
    const add = (title: string, extra: Partial<Parameters<typeof createRecord>[2]> = {}) =>
      createRecord(t.db, actor, { folderId: folder.id, title, ...extra });
    await add('Ada Lovelace');
    await add('By email', { email: 'countess@Babbage.org' });
    await add('By phone', { phone: '+44 20 7946 0958' });
    await add('By company', { data: { company: 'Difference ENGINE Ltd' } });
    await add('By select', {
      data: { stage: 'Customer', work: 'customer@x.io', site: 'https://customer.io' },
    });
    expect(await titles(actor, { search: 'LOVE' })).toEqual(['Ada Lovelace']);
    expect(await titles(actor, { search: 'babbage' })).toEqual(['By email']);
    expect(await titles(actor, { search: '7946' })).toEqual(['By phone']);
    expect(await titles(actor, { search: 'engine' })).toEqual(['By company']);
    // SELECT, EMAIL and URL values are not part of the search.
    expect(await titles(actor, { search: 'customer' })).toEqual([]);
  });

  it('treats q as search: the same meaning, and different values are refused', async () => {
    const { actor, peopleFolderId } = await newWorkspace(t.db);
    await createRecord(t.db, actor, { folderId: peopleFolderId, title: 'Alpha' });
    await createRecord(t.db, actor, { folderId: peopleFolderId, title: 'Beta' });
    expect(await titles(actor, { q: 'alp' })).toEqual(['Alpha']);
    expect(await titles(actor, { search: 'alp' })).toEqual(['Alpha']);
    expect(await titles(actor, { q: 'alp', search: 'alp' })).toEqual(['Alpha']);
    const error = await expectDomainError(
      findRecords(t.db, actor, { q: 'alp', search: 'bet' }),
      'VALIDATION_FAILED',
    );
    expect(error.details?.[0]?.path).toBe('q');
  });

  it('matches LIKE wildcards % and _ (and the escape character) literally', async () => {
    const { actor, peopleFolderId } = await newWorkspace(t.db);
    for (const title of ['100% sure', '100 sure', 'snake_case', 'snakeXcase', 'back\\slash', 'backslash']) {
      await createRecord(t.db, actor, { folderId: peopleFolderId, title });
    }
    expect(await titles(actor, { search: '%' })).toEqual(['100% sure']);
    expect(await titles(actor, { search: '0% s' })).toEqual(['100% sure']);
    expect(await titles(actor, { search: '_' })).toEqual(['snake_case']);
    expect(await titles(actor, { search: 'e_c' })).toEqual(['snake_case']);
    expect(await titles(actor, { search: '\\' })).toEqual(['back\\slash']);
  });

  it('lists only records updated at or after updatedSince', async () => {
    const { actor, peopleFolderId } = await newWorkspace(t.db);
    const old = await createRecord(t.db, actor, { folderId: peopleFolderId, title: 'Old' });
    await t.query(`update records set updated_at = '2020-01-01T00:00:00Z' where id = $1`, [old.record.id]);
    const fresh = await createRecord(t.db, actor, { folderId: peopleFolderId, title: 'Fresh' });
    expect(await titles(actor, { updatedSince: '2021-01-01T00:00:00.000Z' })).toEqual(['Fresh']);
    expect(await titles(actor, { updatedSince: fresh.record.updatedAt })).toEqual(['Fresh']);
    expect(await titles(actor, { updatedSince: '2020-01-01T00:00:00.000Z' })).toEqual(['Fresh', 'Old']);
  });

  it("lists only the Trash with trashed: 'true', newest first", async () => {
    const { actor, peopleFolderId } = await newWorkspace(t.db);
    const ids: string[] = [];
    for (const title of ['T1', 'Live', 'T2', 'T3']) {
      ids.push((await createRecord(t.db, actor, { folderId: peopleFolderId, title })).record.id);
    }
    for (const id of [ids[0]!, ids[2]!, ids[3]!]) await trashRecord(t.db, actor, id);
    const trash = await findRecords(t.db, actor, { trashed: 'true' });
    expect(trash.data.map((r) => r.title)).toEqual(['T3', 'T2', 'T1']);
    expect(trash.data.every((r) => r.trashedAt !== null)).toBe(true);
    expect((await findRecords(t.db, actor, { trashed: 'false' })).data.map((r) => r.title)).toEqual(['Live']);
  });
});

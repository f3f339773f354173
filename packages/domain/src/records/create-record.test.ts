import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchTextOf } from '../shared/search-text.ts';
import {
  expectDomainError,
  newFolderWithAllTypes,
  newWorkspace,
  openTestDb,
  type TestDb,
} from '../testing/fixtures.ts';
import { createRecord } from './create-record.ts';
import { getRecord } from './get-record.ts';
import { trashRecord } from './trash-record.ts';

let t: TestDb;

beforeAll(async () => {
  t = await openTestDb({ max: 20 });
});
afterAll(() => t?.close());

const searchTextIn = async (id: string) =>
  (await t.query<{ search_text: string }>('select search_text from records where id = $1', [id]))[0]
    ?.search_text;

/** `text` lower-cased by PostgreSQL, as search_text keeps it. */
const lowered = async (text: string) =>
  (await t.query<{ text: string }>('select lower($1::text) as text', [text]))[0]?.text;

describe('createRecord', () => {
  it('writes search_text as searchTextOf computes it, lower-cased: title, email, phone and TEXT values only', async () => {
    const { actor } = await newWorkspace(t.db);
    const folder = await newFolderWithAllTypes(t.db, actor);
    const data = { company: 'Analytical ENGINES', stage: 'Customer', score: 7, site: 'https://ada.dev' };
    const { record, created } = await createRecord(t.db, actor, {
      folderId: folder.id,
      title: 'Ada Lovelace',
      email: 'Ada@Example.com',
      phone: '+44 1',
      data,
    });
    expect(created).toBe(true);
    expect(record).toMatchObject({ title: 'Ada Lovelace', email: 'Ada@Example.com', data, trashedAt: null });
    const expected = searchTextOf(
      { title: 'Ada Lovelace', email: 'Ada@Example.com', phone: '+44 1', data },
      folder.fields,
    );
    expect(expected).toBe('Ada Lovelace\nAda@Example.com\n+44 1\nAnalytical ENGINES');
    expect(await searchTextIn(record.id)).toBe('ada lovelace\nada@example.com\n+44 1\nanalytical engines');
    expect(await searchTextIn(record.id)).toBe(await lowered(expected));
  });

  it('drops null custom values on create', async () => {
    const { actor, peopleFolderId } = await newWorkspace(t.db);
    const { record } = await createRecord(t.db, actor, {
      folderId: peopleFolderId,
      title: 'Grace',
      data: { company: null, lifecycle: 'Lead' },
    });
    expect(record.data).toEqual({ lifecycle: 'Lead' });
  });

  it('refuses a folder that does not exist with VALIDATION_FAILED on folderId', async () => {
    const { actor } = await newWorkspace(t.db);
    const error = await expectDomainError(
      createRecord(t.db, actor, { folderId: 'fld_nope', title: 'X' }),
      'VALIDATION_FAILED',
    );
    expect(error.details?.[0]?.path).toBe('folderId');
  });

  it('refuses an owner who is not a member of the workspace (400 VALIDATION_FAILED)', async () => {
    const a = await newWorkspace(t.db);
    const b = await newWorkspace(t.db);
    for (const ownerId of [b.actor.userId, 'usr_00000000000000000000000000', 'not-an-id', '']) {
      const error = await expectDomainError(
        createRecord(t.db, a.actor, { folderId: a.peopleFolderId, title: 'X', ownerId }),
        'VALIDATION_FAILED',
      );
      expect(error.details?.[0]?.path).toBe('ownerId');
    }
    const { record } = await createRecord(t.db, a.actor, {
      folderId: a.peopleFolderId,
      title: 'Owned',
      ownerId: a.actor.userId,
    });
    expect(record.ownerId).toBe(a.actor.userId);
  });
});

describe("createRecord with upsert: 'email'", () => {
  it('updates the live record of the same folder, matching the email case-insensitively', async () => {
    const { actor, peopleFolderId } = await newWorkspace(t.db);
    const first = await createRecord(t.db, actor, {
      folderId: peopleFolderId,
      title: 'Ada',
      email: 'Ada@Example.com',
      phone: '123',
      data: { company: 'Engines', lifecycle: 'Lead' },
    });
    const second = await createRecord(t.db, actor, {
      folderId: peopleFolderId,
      title: 'Ada L.',
      email: 'ada@EXAMPLE.com',
      data: { lifecycle: 'Customer' },
      upsert: 'email',
    });
    expect(second.created).toBe(false);
    expect(second.record.id).toBe(first.record.id);
    // Given fields replace, data merges, fields not given stay.
    expect(second.record).toMatchObject({
      title: 'Ada L.',
      email: 'ada@EXAMPLE.com',
      phone: '123',
      data: { company: 'Engines', lifecycle: 'Customer' },
    });
    const count = await t.query<{ n: number }>(
      'select count(*)::int as n from records where folder_id = $1',
      [peopleFolderId],
    );
    expect(count[0]?.n).toBe(1);
    expect(await searchTextIn(first.record.id)).toBe('ada l.\nada@example.com\n123\nengines');
  });

  it('updates the oldest live record when several of the folder hold the email', async () => {
    const { actor, peopleFolderId } = await newWorkspace(t.db);
    const make = (title: string) =>
      createRecord(t.db, actor, { folderId: peopleFolderId, title, email: 'twice@example.com' });
    const oldest = await make('First');
    await make('Second');
    await make('Third');
    const upserted = await createRecord(t.db, actor, {
      folderId: peopleFolderId,
      title: 'First, updated',
      email: 'TWICE@example.com',
      upsert: 'email',
    });
    expect(upserted).toMatchObject({
      created: false,
      record: { id: oldest.record.id, title: 'First, updated' },
    });
  });

  it('creates a new record when the only match is in Trash', async () => {
    const { actor, peopleFolderId } = await newWorkspace(t.db);
    const old = await createRecord(t.db, actor, {
      folderId: peopleFolderId,
      title: 'Old',
      email: 'x@example.com',
    });
    await trashRecord(t.db, actor, old.record.id);
    const next = await createRecord(t.db, actor, {
      folderId: peopleFolderId,
      title: 'New',
      email: 'x@example.com',
      upsert: 'email',
    });
    expect(next.created).toBe(true);
    expect(next.record.id).not.toBe(old.record.id);
  });

  it('does not match a record of another folder with the same email', async () => {
    const { actor, peopleFolderId } = await newWorkspace(t.db);
    const other = await newFolderWithAllTypes(t.db, actor);
    const inOther = await createRecord(t.db, actor, {
      folderId: other.id,
      title: 'A',
      email: 'y@example.com',
    });
    const upserted = await createRecord(t.db, actor, {
      folderId: peopleFolderId,
      title: 'B',
      email: 'y@example.com',
      upsert: 'email',
    });
    expect(upserted.created).toBe(true);
    expect((await getRecord(t.db, actor, { id: inOther.record.id })).title).toBe('A');
  });

  it('requires an email', async () => {
    const { actor, peopleFolderId } = await newWorkspace(t.db);
    const error = await expectDomainError(
      createRecord(t.db, actor, { folderId: peopleFolderId, title: 'No email', upsert: 'email' }),
      'VALIDATION_FAILED',
    );
    expect(error.details?.[0]?.path).toBe('email');
  });

  it('creates exactly one record when 10 upserts of a new email run at once', async () => {
    const { actor, peopleFolderId } = await newWorkspace(t.db);
    await t.warm(10);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        createRecord(t.db, actor, {
          folderId: peopleFolderId,
          title: `Racer ${i}`,
          email: i % 2 ? 'RACE@example.com' : 'race@example.com',
          upsert: 'email',
        }),
      ),
    );
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.record.id)).size).toBe(1);
    const rows = await t.query('select id from records where lower(email) = $1', ['race@example.com']);
    expect(rows).toHaveLength(1);
  });
});

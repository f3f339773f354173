import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeCursor } from '../shared/cursor.ts';
import {
  expectDomainError,
  newWorkspace,
  openTestDb,
  type TestDb,
  type TestWorkspace,
} from '../testing/fixtures.ts';
import { createRecord } from './create-record.ts';
import { findRecords } from './find-records.ts';

let t: TestDb;

beforeAll(async () => {
  t = await openTestDb();
});
afterAll(() => t?.close());

/** Creates `count` records one after the other and returns their ids newest first. */
async function seed(ws: TestWorkspace, count: number, prefix = 'R') {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    ids.push(
      (await createRecord(t.db, ws.actor, { folderId: ws.peopleFolderId, title: `${prefix}${i}` })).record.id,
    );
  }
  return ids.reverse();
}

describe('findRecords paging', () => {
  it('lists newest first by page and pageSize, with meta', async () => {
    const ws = await newWorkspace(t.db);
    const ids = await seed(ws, 7);
    const first = await findRecords(t.db, ws.actor, { pageSize: 3 });
    expect(first.data.map((r) => r.id)).toEqual(ids.slice(0, 3));
    expect(first.meta).toMatchObject({ page: 1, pageSize: 3, hasMore: true });
    const third = await findRecords(t.db, ws.actor, { page: 3, pageSize: 3 });
    expect(third.data.map((r) => r.id)).toEqual(ids.slice(6));
    expect(third.meta).toEqual({ page: 3, pageSize: 3, hasMore: false, nextCursor: null, nextUrl: null });
    const all = await findRecords(t.db, ws.actor, {});
    expect(all.data.map((r) => r.id)).toEqual(ids);
    expect(all.meta).toEqual({ page: 1, pageSize: 50, hasMore: false, nextCursor: null, nextUrl: null });
  });

  it('concatenates cursor pages to the full list without duplicates while records are inserted', async () => {
    const ws = await newWorkspace(t.db);
    const ids = await seed(ws, 8);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await findRecords(t.db, ws.actor, { pageSize: 3, ...(cursor ? { cursor } : {}) });
      seen.push(...page.data.map((r) => r.id));
      expect(page.meta.page).toBe(cursor ? null : 1);
      cursor = page.meta.nextCursor ?? undefined;
      expect(page.meta.hasMore).toBe(cursor !== undefined);
      // New records between fetches must neither shift later pages nor appear in them.
      await seed(ws, 2, `Late${pages}-`);
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(ids);
  });

  it('breaks ties of the same createdAt by id', async () => {
    const ws = await newWorkspace(t.db);
    const ids = await seed(ws, 6);
    await t.query(`update records set created_at = '2030-01-01T00:00:00Z' where workspace_id = $1`, [
      ws.actor.workspaceId,
    ]);
    const sorted = [...ids].sort().reverse();
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await findRecords(t.db, ws.actor, { pageSize: 4, ...(cursor ? { cursor } : {}) });
      seen.push(...page.data.map((r) => r.id));
      cursor = page.meta.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(sorted);
  });

  it('refuses page and cursor together', async () => {
    const ws = await newWorkspace(t.db);
    const cursor = encodeCursor({ createdAt: new Date().toISOString(), id: 'rec_x' });
    const error = await expectDomainError(
      findRecords(t.db, ws.actor, { page: 1, cursor }),
      'VALIDATION_FAILED',
    );
    expect(error.details?.[0]?.path).toBe('page');
  });

  it.each([0, 201, -1])('refuses pageSize %i, naming the allowed range', async (pageSize) => {
    const ws = await newWorkspace(t.db);
    const error = await expectDomainError(findRecords(t.db, ws.actor, { pageSize }), 'VALIDATION_FAILED');
    expect(error.details).toEqual([{ path: 'pageSize', message: 'must be between 1 and 200' }]);
    expect(error.message).toContain('between 1 and 200');
  });

  it('accepts the edges pageSize 1 and 200', async () => {
    const ws = await newWorkspace(t.db);
    await seed(ws, 2);
    expect((await findRecords(t.db, ws.actor, { pageSize: 1 })).data).toHaveLength(1);
    expect((await findRecords(t.db, ws.actor, { pageSize: 200 })).data).toHaveLength(2);
  });

  it('refuses page 0', async () => {
    const ws = await newWorkspace(t.db);
    const error = await expectDomainError(findRecords(t.db, ws.actor, { page: 0 }), 'VALIDATION_FAILED');
    expect(error.details?.[0]?.path).toBe('page');
  });

  it.each([
    ['garbage', 'not-a-cursor'],
    ['valid base64 of other JSON', Buffer.from('{"a":1}').toString('base64url')],
    ['a cursor with a bad instant', Buffer.from('["yesterday","rec_x"]').toString('base64url')],
  ])('refuses a cursor that is %s', async (_why, cursor) => {
    const ws = await newWorkspace(t.db);
    const error = await expectDomainError(findRecords(t.db, ws.actor, { cursor }), 'VALIDATION_FAILED');
    expect(error.details?.[0]?.path).toBe('cursor');
  });

  it('reads an empty cursor as no cursor: the first page (no-code tools send one on their first call)', async () => {
    const ws = await newWorkspace(t.db);
    for (const title of ['A', 'B', 'C'])
      await createRecord(t.db, ws.actor, { folderId: ws.peopleFolderId, title });
    const first = await findRecords(t.db, ws.actor, { pageSize: 2 });
    expect(first.data.map((r) => r.title)).toEqual(['C', 'B']);
    expect(await findRecords(t.db, ws.actor, { pageSize: 2, cursor: '' })).toEqual(first);
  });
});

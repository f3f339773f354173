import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFolder } from '../folders/create-folder.ts';
import { addFolderField } from '../folders/index.ts';
import type { Actor } from '../shared/actor.ts';
import type { FilterNodeInput } from '../shared/list-filter.ts';
import {
  expectDomainError,
  newFolderWithAllTypes,
  newWorkspace,
  openTestDb,
  type TestDb,
} from '../testing/fixtures.ts';
import { createRecord } from './create-record.ts';
import { findRecords } from './find-records.ts';
import { queryRecords } from './query-records.ts';

let t: TestDb;
let actor: Actor;
let folderId: string;

/** Five records of a folder with a field of every type; titles say what they hold. */
beforeAll(async () => {
  t = await openTestDb();
  ({ actor } = await newWorkspace(t.db));
  folderId = (await newFolderWithAllTypes(t.db, actor)).id;
  const add = (title: string, extra: Omit<Parameters<typeof createRecord>[2], 'folderId' | 'title'>) =>
    createRecord(t.db, actor, { folderId, title, ...extra });
  await add('Ada', {
    email: 'Ada@Example.com',
    data: { stage: 'Lead', score: 10, vip: true, born: '1815-12-10', tags: ['a', 'b'], company: 'Engines' },
  });
  await add('Bob', {
    phone: '555-0101',
    data: { stage: 'Customer', score: 55.5, vip: false, born: '1990-01-01', tags: ['c'] },
  });
  await add('Cy', { data: { stage: 'Customer', score: 90, work: 'cy@work.io', company: 'Cyberdyne' } });
  await add('Di, the second', { email: 'di@example.com', data: { score: 55.5, company: '' } });
  await add('Ed', {});
});
afterAll(() => t?.close());

type Filter = NonNullable<Parameters<typeof findRecords>[2]['filter']>;

async function listed(filter: Filter, extra: Partial<Parameters<typeof findRecords>[2]> = {}) {
  return (await findRecords(t.db, actor, { folderId, filter, ...extra })).data.map((r) => r.title).sort();
}

async function queried(filter: FilterNodeInput) {
  return (await queryRecords(t.db, actor, { folderId, filter })).data.map((r) => r.title).sort();
}

describe('query-string filters on records', () => {
  it('compares columns: text, email (ignoring case), phone, instants', async () => {
    expect(await listed({ title: 'Bob' })).toEqual(['Bob']);
    expect(await listed({ title: { ne: 'Bob' } })).toEqual(['Ada', 'Cy', 'Di, the second', 'Ed']);
    expect(await listed({ title: { in: 'Ada,Ed' } })).toEqual(['Ada', 'Ed']);
    expect(await listed({ title: { contains: 'SECOND' } })).toEqual(['Di, the second']);
    expect(await listed({ email: 'ada@example.COM' })).toEqual(['Ada']);
    expect(await listed({ email: { contains: 'example' } })).toEqual(['Ada', 'Di, the second']);
    expect(await listed({ email: { empty: 'true' } })).toEqual(['Bob', 'Cy', 'Ed']);
    expect(await listed({ phone: { empty: 'false' } })).toEqual(['Bob']);
    expect(await listed({ createdAt: { gte: '2000-01-01T00:00:00Z' }, title: { in: 'Ada,Bob' } })).toEqual([
      'Ada',
      'Bob',
    ]);
    expect(await listed({ createdAt: { lt: '2000-01-01T00:00:00+01:00' } })).toEqual([]);
  });

  it('compares custom values by the folder’s field types', async () => {
    expect(await listed({ 'data.stage': 'Customer' })).toEqual(['Bob', 'Cy']);
    expect(await listed({ 'data.stage': { in: 'Lead,Customer' } })).toEqual(['Ada', 'Bob', 'Cy']);
    // ne also matches records without a value, so eq and ne split the records in two.
    expect(await listed({ 'data.stage': { ne: 'Customer' } })).toEqual(['Ada', 'Di, the second', 'Ed']);
    expect(await listed({ 'data.score': { gte: '50', lt: '60' } })).toEqual(['Bob', 'Di, the second']);
    expect(await listed({ 'data.score': '55.5' })).toEqual(['Bob', 'Di, the second']);
    expect(await listed({ 'data.score': { gt: '55.5' } })).toEqual(['Cy']);
    expect(await listed({ 'data.score': { empty: 'true' } })).toEqual(['Ed']);
    expect(await listed({ 'data.vip': 'true' })).toEqual(['Ada']);
    expect(await listed({ 'data.vip': { ne: 'TRUE' } })).toEqual(['Bob', 'Cy', 'Di, the second', 'Ed']);
    expect(await listed({ 'data.born': { lt: '1900-01-01' } })).toEqual(['Ada']);
    // A DATE takes an instant, as writes do: the day as written before the T.
    expect(await listed({ 'data.born': '1990-01-01T23:30:00-05:00' })).toEqual(['Bob']);
    expect(await listed({ 'data.tags': 'b' })).toEqual(['Ada']);
    expect(await listed({ 'data.tags': { in: 'b,c' } })).toEqual(['Ada', 'Bob']);
    expect(await listed({ 'data.work': 'CY@work.io' })).toEqual(['Cy']);
    expect(await listed({ 'data.company': { contains: 'DYNE' } })).toEqual(['Cy']);
    // An empty TEXT value counts as empty.
    expect(await listed({ 'data.company': { empty: 'true' } })).toEqual(['Bob', 'Di, the second', 'Ed']);
    expect(await listed({ 'data.company': { empty: 'false' } })).toEqual(['Ada', 'Cy']);
  });

  it('ANDs every condition', async () => {
    const filter = { 'data.stage': 'Customer', 'data.score': { gte: '60' } };
    expect(await listed(filter)).toEqual(['Cy']);
  });

  it('refuses a value that does not fit its field, naming the field and the operator', async () => {
    const cases: [Filter, string, RegExp][] = [
      [{ 'data.score': { gte: 'many' } }, 'filter[data.score][gte]', /data\.score gte: must be a number/],
      [{ 'data.stage': 'Prospect' }, 'filter[data.stage]', /data\.stage eq: must be one of: Lead, Customer/],
      [{ 'data.born': { lt: '1900-13-01' } }, 'filter[data.born][lt]', /data\.born lt: must be a date/],
      [{ 'data.vip': { gt: 'true' } }, 'filter[data.vip][gt]', /data\.vip gt: not an operator of this field/],
      [{ title: { gt: 'B' } }, 'filter[title][gt]', /title gt: not an operator/],
      [{ createdAt: { gt: 'yesterday' } }, 'filter[createdAt][gt]', /createdAt gt: must be an ISO 8601/],
      [{ email: 'not-an-email' }, 'filter[email]', /email eq: must be an email address/],
      [{ title: { empty: 'yes' } }, 'filter[title][empty]', /title empty: must be true or false/],
      [{ title: { like: 'x' } }, 'filter[title][like]', /unknown operator like/],
      [{ 'data.tags': 'z' }, 'filter[data.tags]', /must be one of: a, b, c/],
    ];
    for (const [filter, path, message] of cases) {
      const error = await expectDomainError(
        findRecords(t.db, actor, { folderId, filter }),
        'VALIDATION_FAILED',
      );
      expect(error.details, JSON.stringify(filter)).toEqual([
        { path, message: expect.stringMatching(message) },
      ]);
      expect(error.message).toMatch(message);
    }
  });

  it('refuses fields that are not fields: unknown columns and keys the folder lacks', async () => {
    const unknown = await expectDomainError(listed({ name: 'x' }), 'VALIDATION_FAILED');
    expect(unknown.details?.[0]).toMatchObject({ path: 'filter[name]' });
    const key = await expectDomainError(listed({ 'data.nope': 'x' }), 'VALIDATION_FAILED');
    expect(key.message).toMatch(/data\.nope: is not a field of this folder/);
  });
});

describe('custom fields without folderId', () => {
  it('take the type the key has in every folder of the workspace, options of any of them', async () => {
    const { actor: own } = await newWorkspace(t.db, 'Two folders');
    const a = await createFolder(t.db, own, {
      name: 'A',
      fields: [{ key: 'tier', label: 'Tier', type: 'SELECT', options: ['gold'] }],
    });
    const b = await createFolder(t.db, own, {
      name: 'B',
      fields: [{ key: 'tier', label: 'Tier', type: 'SELECT', options: ['silver'] }],
    });
    await createRecord(t.db, own, { folderId: a.id, title: 'Gold', data: { tier: 'gold' } });
    await createRecord(t.db, own, { folderId: b.id, title: 'Silver', data: { tier: 'silver' } });
    const of = async (filter: Filter) =>
      (await findRecords(t.db, own, { filter })).data.map((r) => r.title).sort();
    expect(await of({ 'data.tier': 'silver' })).toEqual(['Silver']);
    expect(await of({ 'data.tier': { in: 'gold,silver' } })).toEqual(['Gold', 'Silver']);
    await expectDomainError(of({ 'data.tier': 'bronze' }), 'VALIDATION_FAILED');

    // The same key as another type in a third folder: the workspace-wide meaning is gone.
    const c = await createFolder(t.db, own, { name: 'C' });
    await addFolderField(t.db, own, { id: c.id, key: 'tier', label: 'Tier', type: 'NUMBER' });
    const mixed = await expectDomainError(of({ 'data.tier': 'silver' }), 'VALIDATION_FAILED');
    expect(mixed.message).toMatch(/data\.tier: has different types in different folders .*give folderId/);
    const inFolder = await findRecords(t.db, own, { folderId: b.id, filter: { 'data.tier': 'silver' } });
    expect(inFolder.data.map((r) => r.title)).toEqual(['Silver']);
    const none = await expectDomainError(of({ 'data.rank': '1' }), 'VALIDATION_FAILED');
    expect(none.message).toMatch(/data\.rank: is not a field of any folder/);
  });
});

describe('JSON filters (POST /records/query)', () => {
  it('nest and, or and not, with values as JSON', async () => {
    expect(
      await queried({
        or: [
          { field: 'data.stage', op: 'eq', value: 'Lead' },
          {
            and: [
              { field: 'data.score', op: 'gt', value: 50 },
              { field: 'data.vip', value: false },
            ],
          },
        ],
      }),
    ).toEqual(['Ada', 'Bob']);
    // not is the complement: records without a value are in it.
    expect(await queried({ not: { field: 'data.stage', value: 'Customer' } })).toEqual([
      'Ada',
      'Di, the second',
      'Ed',
    ]);
    expect(
      await queried({
        not: {
          or: [
            { field: 'data.score', op: 'lt', value: 50 },
            { field: 'data.score', op: 'empty', value: true },
          ],
        },
      }),
    ).toEqual(['Bob', 'Cy', 'Di, the second']);
    expect(await queried({ not: { not: { field: 'title', value: 'Ed' } } })).toEqual(['Ed']);
    // A title with a comma, which a query-string `in` cannot hold.
    expect(await queried({ field: 'title', op: 'in', value: ['Di, the second', 'Ed'] })).toEqual([
      'Di, the second',
      'Ed',
    ]);
    // Strings are read as writes read them: "55.5" for a NUMBER.
    expect(await queried({ field: 'data.score', value: '55.5' })).toEqual(['Bob', 'Di, the second']);
  });

  it('refuses bad values naming the node, null for eq, and trees too deep or too large', async () => {
    const bad = await expectDomainError(
      queryRecords(t.db, actor, {
        folderId,
        filter: { or: [{ field: 'data.score', op: 'gt', value: true }] },
      }),
      'VALIDATION_FAILED',
    );
    expect(bad.details).toEqual([{ path: 'filter.or.0', message: 'data.score gt: must be a number' }]);
    const nul = await expectDomainError(
      queryRecords(t.db, actor, { filter: { field: 'title', value: null } }),
      'VALIDATION_FAILED',
    );
    expect(nul.message).toMatch(/use the operator empty/);
    const list = await expectDomainError(
      queryRecords(t.db, actor, { filter: { field: 'title', op: 'in', value: 'Ada' } }),
      'VALIDATION_FAILED',
    );
    expect(list.message).toMatch(/title in: must be a list/);
    let deep: FilterNodeInput = { field: 'title', value: 'x' };
    for (let i = 0; i < 6; i++) deep = { not: deep };
    const tooDeep = await expectDomainError(queryRecords(t.db, actor, { filter: deep }), 'VALIDATION_FAILED');
    expect(tooDeep.message).toMatch(/deeper than 6 levels/);
    const wide = { or: Array.from({ length: 100 }, () => ({ field: 'title', value: 'x' })) };
    const tooMany = await expectDomainError(queryRecords(t.db, actor, { filter: wide }), 'VALIDATION_FAILED');
    expect(tooMany.message).toMatch(/more than 100/);
  });
});

describe('sorts and counts', () => {
  it('sorts by custom values with records without one last, either way', async () => {
    const sorted = async (sort: string) =>
      (await findRecords(t.db, actor, { folderId, sort })).data.map((r) => r.title);
    expect(await sorted('data.score')).toEqual(['Ada', 'Bob', 'Di, the second', 'Cy', 'Ed']);
    expect(await sorted('-data.score')).toEqual(['Cy', 'Di, the second', 'Bob', 'Ada', 'Ed']);
    expect(await sorted('title')).toEqual(['Ada', 'Bob', 'Cy', 'Di, the second', 'Ed']);
    expect(await sorted('-data.stage')).toEqual(['Ada', 'Cy', 'Bob', 'Ed', 'Di, the second']);
    const error = await expectDomainError(sorted('email'), 'VALIDATION_FAILED');
    expect(error.details).toEqual([{ path: 'sort', message: expect.stringMatching(/cannot sort by email/) }]);
  });

  it('count=true gives the exact total of the filter on every page', async () => {
    const first = await findRecords(t.db, actor, {
      folderId,
      filter: { 'data.score': { gte: '50' } },
      count: 'true',
      pageSize: 1,
    });
    expect(first.meta).toMatchObject({ total: 3, hasMore: true });
    const next = await findRecords(t.db, actor, {
      folderId,
      filter: { 'data.score': { gte: '50' } },
      count: 'true',
      pageSize: 1,
      cursor: first.meta.nextCursor!,
    });
    expect(next.meta.total).toBe(3);
    const plain = await findRecords(t.db, actor, { folderId });
    expect(plain.meta).not.toHaveProperty('total');
  });
});

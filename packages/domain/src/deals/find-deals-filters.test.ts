import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPipelines } from '../pipelines/find-pipelines.ts';
import type { Actor } from '../shared/actor.ts';
import { expectDomainError, newWorkspace, openTestDb, type TestDb } from '../testing/fixtures.ts';
import { createDeal } from './create-deal.ts';
import { findDeals } from './find-deals.ts';

let t: TestDb;
let actor: Actor;
let pipelineId: string;
let stageIds: string[];

beforeAll(async () => {
  t = await openTestDb();
  ({ actor } = await newWorkspace(t.db));
  const pipeline = (await findPipelines(t.db, actor, {})).data[0]!;
  pipelineId = pipeline.id;
  stageIds = pipeline.stages.map((s) => s.id);
  const add = (title: string, extra: Omit<Parameters<typeof createDeal>[2], 'pipelineId' | 'title'>) =>
    createDeal(t.db, actor, { pipelineId, title, ...extra });
  await add('Small', { amount: 100, closeDate: '2026-01-15', data: { source: 'web', seats: 5 } });
  await add('Medium', { amount: 2500.5, stageId: stageIds[1]!, data: { source: 'ads', seats: '12' } });
  await add('Large', {
    amount: 90000,
    closeDate: '2026-03-01',
    data: { source: 'web', seats: 40, vip: true },
  });
  await add('Unpriced', { data: { source: null } });
});
afterAll(() => t?.close());

type DealFilter = NonNullable<Parameters<typeof findDeals>[2]['filter']>;

async function deals(filter: DealFilter | undefined, sort?: string) {
  const page = await findDeals(t.db, actor, {
    pipelineId,
    ...(filter ? { filter } : {}),
    ...(sort ? { sort } : {}),
  });
  return page.data.map((d) => d.title);
}

describe('deal filters and sorts', () => {
  it('filter on their own fields: amount, closeDate, stageId, title', async () => {
    expect((await deals({ amount: { gte: '2500.5' } })).sort()).toEqual(['Large', 'Medium']);
    expect((await deals({ amount: { lt: '1000' } })).sort()).toEqual(['Small']);
    expect((await deals({ amount: { empty: 'true' } })).sort()).toEqual(['Unpriced']);
    expect((await deals({ closeDate: { gt: '2026-02-01' } })).sort()).toEqual(['Large']);
    expect((await deals({ stageId: stageIds[1]! })).sort()).toEqual(['Medium']);
    expect((await deals({ stageId: { ne: stageIds[1]! } })).sort()).toEqual(['Large', 'Small', 'Unpriced']);
    expect((await deals({ title: { contains: 'ARG' } })).sort()).toEqual(['Large']);
  });

  it('filter on free data: equality as JSON, a query-string number also matching its text', async () => {
    expect((await deals({ 'data.source': 'web' })).sort()).toEqual(['Large', 'Small']);
    // `12` from a query string matches the number 12 and the text "12".
    expect((await deals({ 'data.seats': { in: '5,12' } })).sort()).toEqual(['Medium', 'Small']);
    // Ranges compare numbers with numbers only; "12" is text.
    expect((await deals({ 'data.seats': { gte: '5' } })).sort()).toEqual(['Large', 'Small']);
    expect((await deals({ 'data.vip': 'true' })).sort()).toEqual(['Large']);
    // A JSON null is no value.
    expect((await deals({ 'data.source': { empty: 'true' } })).sort()).toEqual(['Unpriced']);
  });

  it('sort by amount, closeDate and data with deals without a value last', async () => {
    expect(await deals(undefined, 'amount')).toEqual(['Small', 'Medium', 'Large', 'Unpriced']);
    expect(await deals(undefined, '-amount')).toEqual(['Large', 'Medium', 'Small', 'Unpriced']);
    expect((await deals(undefined, '-closeDate')).slice(0, 2)).toEqual(['Large', 'Small']);
    // Free JSON sorts as PostgreSQL orders jsonb: text ("12") before numbers (5, 40).
    expect(await deals(undefined, 'data.seats')).toEqual(['Medium', 'Small', 'Large', 'Unpriced']);
  });

  it('walk by cursor under a sort, and refuse the cursor with another sort', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await findDeals(t.db, actor, {
        pipelineId,
        sort: '-amount',
        pageSize: 1,
        ...(cursor ? { cursor } : {}),
      });
      seen.push(...page.data.map((d) => d.title ?? ''));
      cursor = page.meta.nextCursor ?? undefined;
      if (cursor && seen.length === 1) {
        const other = await expectDomainError(
          findDeals(t.db, actor, { pipelineId, sort: 'amount', cursor }),
          'VALIDATION_FAILED',
        );
        expect(other.message).toMatch(/cursor: belongs to another sort or other filters/);
      }
    } while (cursor);
    expect(seen).toEqual(['Large', 'Medium', 'Small', 'Unpriced']);
  });

  it('count the filter and refuse what deals do not have', async () => {
    const page = await findDeals(t.db, actor, {
      pipelineId,
      filter: { 'data.source': 'web' },
      count: 'true',
    });
    expect(page.meta.total).toBe(2);
    await expectDomainError(
      findDeals(t.db, actor, { pipelineId, filter: { dueAt: 'x' } }),
      'VALIDATION_FAILED',
    );
    await expectDomainError(findDeals(t.db, actor, { pipelineId, sort: 'stageId' }), 'VALIDATION_FAILED');
    const range = await expectDomainError(
      findDeals(t.db, actor, { pipelineId, filter: { amount: { gt: 'lots' } } }),
      'VALIDATION_FAILED',
    );
    expect(range.details).toEqual([{ path: 'filter[amount][gt]', message: 'amount gt: must be a number' }]);
  });
});

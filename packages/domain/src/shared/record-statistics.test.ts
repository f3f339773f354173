import { closePool, createDatabase, createPool, type Database, schema } from '@crm/db';
import { createTestDatabase, type TestDatabase } from '@crm/db/testing';
import { eq } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertLiveRecord as assertDealRecord } from '../deals/load-deal.ts';
import { addFolderField } from '../folders/add-folder-field.ts';
import { createFolder } from '../folders/create-folder.ts';
import { loadFolder } from '../folders/load-folder.ts';
import { recordFields } from '../record-model/snapshot.ts';
import { createRecord } from '../records/create-record.ts';
import { getRecord } from '../records/get-record.ts';
import { loadRecord } from '../records/load-record.ts';
import { noteRecordsCreated } from '../records/note-records-created.ts';
import { updateRecord } from '../records/update-record.ts';
import { expandRecords } from '../relations/expand.ts';
import { matchReferences } from '../relations/one-values.ts';
import { estimateRows } from '../shared/list-query.ts';
import { isLiveRecord } from '../tasks/task-links.ts';
import { newWorkspace, type TestWorkspace } from '../testing/fixtures.ts';
import { planRecorder } from '../testing/plans.ts';
import { keepStatistics, STATISTICS_FLOOR_ROWS } from './record-statistics.ts';

/**
 * A workspace filled since the planner's statistics were last gathered, beside another the
 * statistics know (docs/jobs.md, "How jobs share the service"): the lookups of one record by
 * id read the primary key whatever the statistics say, and an import's check gathers them
 * once its rows outgrow what the planner believes. Autovacuum is off for `records` in this
 * test's database, so that the statistics are only what the test gathers.
 */

let database: TestDatabase;
let pool: pg.Pool;
let db: Database;
let mine: TestWorkspace;
let plansOf: ReturnType<typeof planRecorder>;
const MINE = 50_000;
/** The record GET one reads, which links to a company (read with `expand=employer`). */
const READ = MINE / 2;

/** The records' `employer` read with `expand`, as a list of them reads it. */
const expandEmployer = async (id: string) => {
  const record = await getRecord(db, mine.actor, { id });
  const folder = await loadFolder(db, mine.actor, mine.peopleFolderId);
  return expandRecords(db, mine.actor, [record], ['employer'], [folder]);
};

/** The records of the People folder a relation value naming `id` matches. */
const matchById = (id: string) =>
  matchReferences(db, mine.actor.workspaceId, [{ folder: mine.peopleFolderId, by: 'id', v: id }]);

const idOf = (n: number) => `rec_0${String(n).padStart(25, '0')}`;

const seed = (ws: TestWorkspace, count: number) =>
  pool.query(
    `insert into records (workspace_id, id, folder_id, title, email, data)
     select $1, 'rec_0' || lpad(n::text, 25, '0'), $2, 'Contact ' || n,
            'contact' || n || '@example.com',
            jsonb_build_object('lifecycle', case when n % 10 = 0 then 'Customer' else 'Lead' end)
       from generate_series(1, $3::int) n`,
    [ws.actor.workspaceId, ws.peopleFolderId, count],
  );

const analyzeCount = async () => {
  const { rows } = await pool.query<{ n: string }>(
    `select analyze_count as n from pg_stat_user_tables where relname = 'records'`,
  );
  return Number(rows[0]?.n ?? 0);
};

const believed = (workspaceId: string) =>
  estimateRows(db, schema.records, eq(schema.records.workspaceId, workspaceId));

beforeAll(async () => {
  database = await createTestDatabase();
  pool = createPool({ connectionString: database.connectionString, max: 4 });
  plansOf = planRecorder(pool);
  db = createDatabase(pool);
  await pool.query('alter table records set (autovacuum_enabled = false)');
  const other = await newWorkspace(db, 'Other');
  mine = await newWorkspace(db, 'Mine');
  await seed(other, 20_000);
  await pool.query('analyze records');
  await seed(mine, MINE);
  const companies = await createFolder(db, mine.actor, { name: 'Companies' });
  await addFolderField(db, mine.actor, {
    id: mine.peopleFolderId,
    key: 'employer',
    label: 'Employer',
    type: 'RELATION',
    relation: { folderId: companies.id, cardinality: 'ONE' },
    inverse: { key: 'people', label: 'People', cardinality: 'MANY' },
  });
  const company = await createRecord(db, mine.actor, { folderId: companies.id, title: 'Globex' });
  await updateRecord(db, mine.actor, { id: idOf(READ), data: { employer: company.record.id } });
}, 120_000);
afterAll(async () => {
  await closePool(pool);
  await database?.drop();
});

describe('statistics that do not know a workspace', () => {
  it('leave the lookups of one record by id on the primary key', async () => {
    expect(await believed(mine.actor.workspaceId)).toBeLessThan(MINE / 2);
    const id = idOf(READ);
    const lookups: [string, () => Promise<unknown>][] = [
      ['GET one', () => getRecord(db, mine.actor, { id })],
      ['GET one with expand', () => getRecord(db, mine.actor, { id, expand: 'employer' })],
      ['loadRecord', () => loadRecord(db, mine.actor, id)],
      ['an event snapshot', () => recordFields(db, mine.actor.workspaceId, id)],
      ['expand on a list', () => expandEmployer(id)],
      ['a deal naming the record', () => assertDealRecord(db, mine.actor, id, 'recordId')],
      ['a task naming the record', () => isLiveRecord(db, mine.actor, id)],
      ['a relation named by id', () => matchById(id)],
    ];
    for (const [what, run] of lookups) {
      // Run under EXPLAIN ANALYZE: the scans that ran (a statement's branch for relations
      // named by email or title, given none, does not).
      const plans = await plansOf(run, /from "?records"? r?\b/, { analyze: true });
      expect(plans.length, what).toBeGreaterThan(0);
      for (const plan of plans) {
        const indexes = plan.nodes
          .filter((n) => n.relation === 'records' && n.executed !== false)
          .map((n) => n.index ?? n.type);
        expect(indexes.length, `${what}: ${plan.text}`).toBeGreaterThan(0);
        expect(new Set(indexes), `${what}: ${plan.text}`).toEqual(new Set(['records_pkey']));
      }
    }
  });

  it('still finds a trashed record not found, by every lookup', async () => {
    const id = idOf(7);
    await pool.query('update records set trashed_at = now() where workspace_id = $1 and id = $2', [
      mine.actor.workspaceId,
      id,
    ]);
    await expect(getRecord(db, mine.actor, { id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(getRecord(db, mine.actor, { id, expand: 'employer' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(loadRecord(db, mine.actor, id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await loadRecord(db, mine.actor, id, { state: 'trashed' })).id).toBe(id);
    expect((await recordFields(db, mine.actor.workspaceId, id)).record).toBeNull();
    await expect(assertDealRecord(db, mine.actor, id, 'recordId')).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    expect(await isLiveRecord(db, mine.actor, id)).toBe(false);
    expect((await matchById(id)).size).toBe(0);
    // A link to a record since trashed is shown as none.
    const [linked] = await expandEmployer(idOf(READ));
    const employer = linked?.data.employer as string;
    expect(linked?.expanded?.employer?.id).toBe(employer);
    await pool.query('update records set trashed_at = now() where workspace_id = $1 and id = $2', [
      mine.actor.workspaceId,
      employer,
    ]);
    const [shown] = await expandEmployer(idOf(READ));
    expect(shown?.expanded?.employer).toBeNull();
    // And the lookups still find live records.
    expect(await isLiveRecord(db, mine.actor, idOf(READ))).toBe(true);
    expect((await matchById(idOf(READ))).get(0)).toEqual([idOf(READ)]);
  });
});

describe("an import's check of the statistics", () => {
  it('asks nothing before the floor, then gathers statistics the rows outgrew, once', async () => {
    const check = keepStatistics(db, mine.actor.workspaceId, 0);
    const before = await analyzeCount();
    await check(STATISTICS_FLOOR_ROWS - 1);
    expect(await analyzeCount()).toBe(before);
    await check(MINE);
    expect(await analyzeCount()).toBe(before + 1);
    expect(await believed(mine.actor.workspaceId)).toBeGreaterThanOrEqual(MINE / 2);
    // The next question comes at the next doubling (80,000 rows), and the planner now knows
    // of more than half of them: no ANALYZE.
    await check(79_999);
    await check(80_000);
    expect(await analyzeCount()).toBe(before + 1);
  });

  it('resumed from a checkpoint, asks at the doublings that come after it', async () => {
    const before = await analyzeCount();
    // From row 90,000 the next doubling of the floor is 160,000; the planner believes in
    // 50,000 records, so there the check gathers statistics again.
    const check = keepStatistics(db, mine.actor.workspaceId, 90_000);
    await check(150_000);
    expect(await analyzeCount()).toBe(before);
    await check(160_000);
    expect(await analyzeCount()).toBe(before + 1);
  });
});

describe('records created through the API', () => {
  it('gather statistics once the records created outgrow what the planner believes, at the doublings', async () => {
    const fresh = await newWorkspace(db, 'Filled through the API');
    await seed(fresh, 6_000);
    expect(await believed(fresh.actor.workspaceId)).toBeLessThan(1_000);
    const before = await analyzeCount();
    // Below the floor, no question; another workspace's records count apart.
    expect(noteRecordsCreated(db, fresh.actor.workspaceId, STATISTICS_FLOOR_ROWS - 1)).toBeUndefined();
    expect(noteRecordsCreated(db, mine.actor.workspaceId, 1)).toBeUndefined();
    await noteRecordsCreated(db, fresh.actor.workspaceId, 1);
    expect(await analyzeCount()).toBe(before + 1);
    expect(await believed(fresh.actor.workspaceId)).toBeGreaterThanOrEqual(3_000);
    // The next question at 10,000 records; the planner then knows of more than half: no ANALYZE.
    expect(noteRecordsCreated(db, fresh.actor.workspaceId, 4_999)).toBeUndefined();
    await noteRecordsCreated(db, fresh.actor.workspaceId, 1);
    expect(await analyzeCount()).toBe(before + 1);
  });
});

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../shared/ids.ts';
import {
  expectDomainError,
  newWorkspace,
  openTestDb,
  type TestDb,
  type TestWorkspace,
} from '../testing/fixtures.ts';
import { createRecord } from './create-record.ts';
import { findRecords } from './find-records.ts';
import { getRecord } from './get-record.ts';
import { purgeTrash, TRASH_RETENTION_DAYS } from './purge-trash.ts';
import { restoreRecord } from './restore-record.ts';
import { trashRecord } from './trash-record.ts';

let t: TestDb;

beforeAll(async () => {
  t = await openTestDb();
});
afterAll(() => t?.close());

async function newRecord(ws: TestWorkspace, title = 'Ada') {
  return (await createRecord(t.db, ws.actor, { folderId: ws.peopleFolderId, title })).record;
}

/** Puts a record in Trash `days` days ago. */
async function trashDaysAgo(ws: TestWorkspace, id: string, days: number) {
  await trashRecord(t.db, ws.actor, id);
  await t.query(`update records set trashed_at = now() - make_interval(days => $2) where id = $1`, [
    id,
    days,
  ]);
}

/** A deal, a task and a comment that point at the record, written as the other services would. */
async function linkEverything(ws: TestWorkspace, recordId: string) {
  const { workspaceId } = ws.actor;
  const pipelineId = newId('pipeline');
  const stageId = newId('stage');
  const dealId = newId('deal');
  const taskId = newId('task');
  const commentId = newId('comment');
  await t.query('insert into pipelines (workspace_id, id, name) values ($1, $2, $3)', [
    workspaceId,
    pipelineId,
    'P',
  ]);
  await t.query(
    'insert into stages (workspace_id, id, pipeline_id, name, position) values ($1, $2, $3, $4, 0)',
    [workspaceId, stageId, pipelineId, 'S'],
  );
  await t.query(
    'insert into deals (workspace_id, id, pipeline_id, stage_id, title, record_id) values ($1, $2, $3, $4, $5, $6)',
    [workspaceId, dealId, pipelineId, stageId, 'Deal', recordId],
  );
  await t.query('insert into tasks (workspace_id, id, title, record_id) values ($1, $2, $3, $4)', [
    workspaceId,
    taskId,
    'Call back',
    recordId,
  ]);
  await t.query(
    'insert into comments (workspace_id, id, record_id, text, author) values ($1, $2, $3, $4, $5)',
    [workspaceId, commentId, recordId, 'Nice', 'Owner'],
  );
  return { dealId, taskId, commentId };
}

const exists = async (table: string, id: string) =>
  (await t.query(`select 1 from ${table} where id = $1`, [id])).length === 1;

describe('trashRecord and restoreRecord', () => {
  it('hides a trashed record from get; restore brings it back', async () => {
    const ws = await newWorkspace(t.db);
    const ada = await newRecord(ws);
    const trashed = await trashRecord(t.db, ws.actor, ada.id);
    expect(trashed.trashedAt).not.toBeNull();
    await expectDomainError(getRecord(t.db, ws.actor, { id: ada.id }), 'NOT_FOUND');
    const restored = await restoreRecord(t.db, ws.actor, ada.id);
    expect(restored).toMatchObject({ id: ada.id, title: 'Ada', trashedAt: null });
    expect((await getRecord(t.db, ws.actor, { id: ada.id })).trashedAt).toBeNull();
  });

  it('answers NOT_FOUND when trashing a record already in Trash', async () => {
    const ws = await newWorkspace(t.db);
    const ada = await newRecord(ws);
    await trashRecord(t.db, ws.actor, ada.id);
    await expectDomainError(trashRecord(t.db, ws.actor, ada.id), 'NOT_FOUND');
  });

  it('leaves a live record as it is when asked to restore it, and answers NOT_FOUND for an unknown one', async () => {
    const ws = await newWorkspace(t.db);
    const ada = await newRecord(ws);
    const restored = await restoreRecord(t.db, ws.actor, ada.id);
    expect(restored).toMatchObject({ id: ada.id, trashedAt: null, updatedAt: ada.updatedAt });
    await expectDomainError(restoreRecord(t.db, ws.actor, 'rec_00000000000000000000000000'), 'NOT_FOUND');
  });

  it('moves the record between the live list and the Trash list', async () => {
    const ws = await newWorkspace(t.db);
    const ada = await newRecord(ws);
    await trashRecord(t.db, ws.actor, ada.id);
    expect((await findRecords(t.db, ws.actor, {})).data.map((r) => r.id)).not.toContain(ada.id);
    expect((await findRecords(t.db, ws.actor, { trashed: 'true' })).data.map((r) => r.id)).toEqual([ada.id]);
    await restoreRecord(t.db, ws.actor, ada.id);
    expect((await findRecords(t.db, ws.actor, {})).data.map((r) => r.id)).toEqual([ada.id]);
  });
});

describe('purgeTrash', () => {
  it('removes only records trashed longer than the retention', async () => {
    const ws = await newWorkspace(t.db);
    const old = await newRecord(ws, 'Old');
    const recent = await newRecord(ws, 'Recent');
    const live = await newRecord(ws, 'Live');
    await trashDaysAgo(ws, old.id, TRASH_RETENTION_DAYS + 1);
    await trashDaysAgo(ws, recent.id, TRASH_RETENTION_DAYS - 1);
    const purged = await purgeTrash(t.db);
    expect(purged).toBeGreaterThanOrEqual(1);
    expect(await exists('records', old.id)).toBe(false);
    expect(await exists('records', recent.id)).toBe(true);
    expect(await exists('records', live.id)).toBe(true);
  });

  it('clears deal and task links and deletes the comments of purged records', async () => {
    const ws = await newWorkspace(t.db);
    const old = await newRecord(ws, 'Old');
    const kept = await newRecord(ws, 'Kept');
    const oldLinks = await linkEverything(ws, old.id);
    const keptLinks = await linkEverything(ws, kept.id);
    await trashDaysAgo(ws, old.id, TRASH_RETENTION_DAYS + 5);
    await purgeTrash(t.db);
    expect(await exists('records', old.id)).toBe(false);
    const deal = await t.query<{ record_id: string | null }>('select record_id from deals where id = $1', [
      oldLinks.dealId,
    ]);
    expect(deal).toEqual([{ record_id: null }]);
    const task = await t.query('select record_id from tasks where id = $1', [oldLinks.taskId]);
    expect(task).toEqual([{ record_id: null }]);
    expect(await exists('comments', oldLinks.commentId)).toBe(false);
    // The live record keeps its links and comment.
    expect(await t.query('select record_id from deals where id = $1', [keptLinks.dealId])).toEqual([
      { record_id: kept.id },
    ]);
    expect(await exists('comments', keptLinks.commentId)).toBe(true);
  });

  it('works through batches until every expired record is gone', async () => {
    const ws = await newWorkspace(t.db, `batch-${randomUUID()}`);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await newRecord(ws, `R${i}`)).id);
    for (const id of ids) await trashDaysAgo(ws, id, 40);
    const purged = await purgeTrash(t.db, { batchSize: 2 });
    expect(purged).toBeGreaterThanOrEqual(5);
    for (const id of ids) expect(await exists('records', id)).toBe(false);
  });

  it('honours a shorter retention when asked', async () => {
    const ws = await newWorkspace(t.db);
    const rec = await newRecord(ws);
    await trashDaysAgo(ws, rec.id, 3);
    await purgeTrash(t.db, { olderThanDays: 5 });
    expect(await exists('records', rec.id)).toBe(true);
    await purgeTrash(t.db, { olderThanDays: 2 });
    expect(await exists('records', rec.id)).toBe(false);
  });
});

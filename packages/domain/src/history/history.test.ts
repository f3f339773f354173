import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeal } from '../deals/create-deal.ts';
import { deleteDeal } from '../deals/delete-deal.ts';
import { updateDeal } from '../deals/update-deal.ts';
import { createFolder } from '../folders/create-folder.ts';
import { addFolderField } from '../folders/index.ts';
import { findPipelines } from '../pipelines/index.ts';
import { createRecord } from '../records/create-record.ts';
import { purgeTrash } from '../records/purge-trash.ts';
import { trashRecord } from '../records/trash-record.ts';
import { updateRecord } from '../records/update-record.ts';
import { linkRecords } from '../relations/link-records.ts';
import type { Actor } from '../shared/actor.ts';
import { createTask } from '../tasks/create-task.ts';
import { updateTask } from '../tasks/update-task.ts';
import { expectDomainError, newWorkspace, openTestDb, type TestDb } from '../testing/fixtures.ts';
import { findHistory } from './find-history.ts';
import { revertHistoryEntry } from './revert-history-entry.ts';

let t: TestDb;

beforeAll(async () => {
  t = await openTestDb();
});
afterAll(() => t?.close());

/** The workspace owner acting through an API key, in a request (as the REST gate makes it). */
function throughKey(actor: Actor, requestId: string): Actor {
  return {
    ...actor,
    apiKeyId: 'key_test',
    provenance: { actor: { type: 'apiKey', id: 'key_test', name: 'Zapier sync' }, source: 'rest', requestId },
  };
}

describe('field history', () => {
  it('keeps every field change with its actor, surface and request, newest first', async () => {
    const ws = await newWorkspace(t.db);
    const { record } = await createRecord(t.db, ws.actor, {
      folderId: ws.peopleFolderId,
      title: 'Ada',
      data: { lifecycle: 'Lead' },
    });
    await updateRecord(t.db, throughKey(ws.actor, 'req-1'), {
      id: record.id,
      title: 'Ada Lovelace',
      data: { lifecycle: 'Customer' },
    });
    // Nothing changes: nothing is recorded.
    await updateRecord(t.db, throughKey(ws.actor, 'req-2'), { id: record.id, title: 'Ada Lovelace' });
    await updateRecord(t.db, ws.actor, { id: record.id, data: { lifecycle: null } });

    const page = await findHistory(t.db, ws.actor, { subject: 'record', id: record.id });
    const changes = page.data.map((e) => [e.field, e.from, e.to]);
    expect(changes).toHaveLength(3);
    expect(changes[0]).toEqual(['data.lifecycle', 'Customer', null]);
    // One change of two fields, in one request: in either order within it.
    expect(changes.slice(1).sort()).toEqual([
      ['data.lifecycle', 'Lead', 'Customer'],
      ['title', 'Ada', 'Ada Lovelace'],
    ]);
    const keyed = page.data.filter((e) => e.requestId === 'req-1');
    expect(keyed).toHaveLength(2);
    for (const entry of keyed) {
      expect(entry).toMatchObject({
        actor: { type: 'apiKey', id: 'key_test', name: 'Zapier sync' },
        source: 'rest',
      });
    }
    expect(page.data[0]).toMatchObject({
      actor: { type: 'user', id: ws.actor.userId, name: ws.actor.userName },
      source: 'system',
      requestId: null,
    });

    const titles = await findHistory(t.db, ws.actor, { subject: 'record', id: record.id, field: 'title' });
    expect(titles.data).toHaveLength(1);
    const first = await findHistory(t.db, ws.actor, { subject: 'record', id: record.id, pageSize: 2 });
    expect(first.meta.hasMore).toBe(true);
    const rest = await findHistory(t.db, ws.actor, {
      subject: 'record',
      id: record.id,
      cursor: first.meta.nextCursor!,
    });
    expect([...first.data, ...rest.data].map((e) => e.id)).toEqual(page.data.map((e) => e.id));
    const future = await findHistory(t.db, ws.actor, {
      subject: 'record',
      id: record.id,
      since: new Date(Date.now() + 60_000).toISOString(),
    });
    expect(future.data).toEqual([]);
  });

  it('carries the provenance on the change’s event', async () => {
    const ws = await newWorkspace(t.db);
    const { record } = await createRecord(t.db, throughKey(ws.actor, 'req-7'), {
      folderId: ws.peopleFolderId,
      title: 'Grace',
    });
    await updateRecord(t.db, throughKey(ws.actor, 'req-8'), { id: record.id, title: 'Grace Hopper' });
    const events = await t.query<{ type: string; payload: Record<string, unknown> }>(
      'select type, payload from events where workspace_id = $1 order by id',
      [ws.actor.workspaceId],
    );
    expect(events.map((e) => e.type)).toEqual(['record.created', 'record.updated']);
    expect(events[0]!.payload).toMatchObject({
      actor: { type: 'apiKey', id: 'key_test', name: 'Zapier sync' },
      source: 'rest',
      requestId: 'req-7',
    });
    expect(events[1]!.payload).toMatchObject({
      requestId: 'req-8',
      changedFields: ['title'],
      previous: { title: 'Grace' },
      changes: { title: { from: 'Grace', to: 'Grace Hopper' } },
    });
  });

  it('records a link on each MANY side, and a ONE side once, through its value', async () => {
    const ws = await newWorkspace(t.db);
    const companies = await createFolder(t.db, ws.actor, { name: 'Companies' });
    await addFolderField(t.db, ws.actor, {
      id: ws.peopleFolderId,
      key: 'employer',
      label: 'Employer',
      type: 'RELATION',
      relation: { folderId: companies.id, cardinality: 'ONE' },
      inverse: { key: 'people', label: 'People', cardinality: 'MANY' },
    });
    const acme = (await createRecord(t.db, ws.actor, { folderId: companies.id, title: 'Acme' })).record;
    const ada = (await createRecord(t.db, ws.actor, { folderId: ws.peopleFolderId, title: 'Ada' })).record;
    await linkRecords(t.db, ws.actor, [
      { ok: true, input: { from: ada.id, field: 'employer', to: acme.id } },
    ]);

    const adaHistory = await findHistory(t.db, ws.actor, { subject: 'record', id: ada.id });
    expect(adaHistory.data.map((e) => [e.field, e.from, e.to])).toEqual([['data.employer', null, acme.id]]);
    const acmeHistory = await findHistory(t.db, ws.actor, { subject: 'record', id: acme.id });
    expect(acmeHistory.data.map((e) => [e.field, e.from, e.to])).toEqual([['data.people', null, ada.id]]);

    // Reverting the company's entry removes the link, on both sides.
    const reverted = await revertHistoryEntry(t.db, ws.actor, {
      subject: 'record',
      id: acme.id,
      entryId: acmeHistory.data[0]!.id,
    });
    expect(reverted).toMatchObject({ id: acme.id });
    const links = await t.query('select 1 from record_links where workspace_id = $1', [ws.actor.workspaceId]);
    expect(links).toHaveLength(0);
    expect((await findHistory(t.db, ws.actor, { subject: 'record', id: ada.id })).data[0]).toMatchObject({
      field: 'data.employer',
      from: acme.id,
      to: null,
    });
  });

  it('keeps a deal’s stage moves and a task’s status changes', async () => {
    const ws = await newWorkspace(t.db);
    const pipeline = (await findPipelines(t.db, ws.actor, {})).data[0]!;
    const [lead, qualified, , , lost] = pipeline.stages;
    const deal = await createDeal(t.db, ws.actor, { pipelineId: pipeline.id, title: 'Big one', amount: 100 });
    await updateDeal(t.db, throughKey(ws.actor, 'req-move'), { id: deal.id, stageId: lost!.id, amount: 120 });
    const dealHistory = await findHistory(t.db, ws.actor, { subject: 'deal', id: deal.id });
    expect(dealHistory.data.map((e) => [e.field, e.from, e.to]).sort()).toEqual(
      [
        ['amount', 100, 120],
        ['stageId', lead!.id, lost!.id],
      ].sort(),
    );
    // Who moved it to Lost, and from where.
    const move = dealHistory.data.find((e) => e.field === 'stageId')!;
    expect(move).toMatchObject({ actor: { type: 'apiKey', name: 'Zapier sync' }, requestId: 'req-move' });

    const task = await createTask(t.db, ws.actor, { title: 'Call Ada' });
    await updateTask(t.db, ws.actor, { id: task.id, status: 'DONE' });
    const taskHistory = await findHistory(t.db, ws.actor, { subject: 'task', id: task.id });
    expect(taskHistory.data.map((e) => [e.field, e.from, e.to])).toEqual([['status', 'OPEN', 'DONE']]);

    // A revert is a new change, and the stage is back.
    await revertHistoryEntry(t.db, ws.actor, { subject: 'deal', id: deal.id, entryId: move.id });
    const after = await findHistory(t.db, ws.actor, { subject: 'deal', id: deal.id, field: 'stageId' });
    expect(after.data.map((e) => [e.from, e.to])).toEqual([
      [lost!.id, lead!.id],
      [lead!.id, lost!.id],
    ]);
    expect(qualified).toBeDefined();
  });

  it('refuses to revert a field that changed since (409), unless forced', async () => {
    const ws = await newWorkspace(t.db);
    const { record } = await createRecord(t.db, ws.actor, { folderId: ws.peopleFolderId, title: 'A' });
    await updateRecord(t.db, ws.actor, { id: record.id, title: 'B' });
    await updateRecord(t.db, ws.actor, { id: record.id, title: 'C' });
    const [toC, toB] = (await findHistory(t.db, ws.actor, { subject: 'record', id: record.id })).data;
    const conflict = await expectDomainError(
      revertHistoryEntry(t.db, ws.actor, { subject: 'record', id: record.id, entryId: toB!.id }),
      'CONFLICT',
    );
    expect(conflict.message).toMatch(/title changed after/);
    expect(
      await revertHistoryEntry(t.db, ws.actor, { subject: 'record', id: record.id, entryId: toC!.id }),
    ).toMatchObject({
      title: 'B',
    });
    expect(
      await revertHistoryEntry(t.db, ws.actor, {
        subject: 'record',
        id: record.id,
        entryId: toB!.id,
        force: 'true',
      }),
    ).toMatchObject({ title: 'A' });
    await expectDomainError(
      revertHistoryEntry(t.db, ws.actor, {
        subject: 'record',
        id: record.id,
        entryId: 'hst_01jq3v6f6ve7s9t8m1k2c3d4e5',
      }),
      'NOT_FOUND',
    );
  });

  it('is kept as long as its subject: a purge or a delete takes it along', async () => {
    const ws = await newWorkspace(t.db);
    const { record } = await createRecord(t.db, ws.actor, { folderId: ws.peopleFolderId, title: 'Old' });
    await updateRecord(t.db, ws.actor, { id: record.id, title: 'Older' });
    const pipeline = (await findPipelines(t.db, ws.actor, {})).data[0]!;
    const deal = await createDeal(t.db, ws.actor, { pipelineId: pipeline.id, title: 'x' });
    await updateDeal(t.db, ws.actor, { id: deal.id, title: 'y' });
    const count = async (id: string) =>
      (await t.query('select 1 from history where subject_id = $1', [id])).length;
    expect(await count(record.id)).toBe(1);
    expect(await count(deal.id)).toBe(1);

    await deleteDeal(t.db, ws.actor, deal.id);
    expect(await count(deal.id)).toBe(0);

    await trashRecord(t.db, ws.actor, record.id);
    expect(await count(record.id)).toBe(1);
    await t.query(`update records set trashed_at = now() - interval '31 days' where id = $1`, [record.id]);
    await purgeTrash(t.db);
    expect(await count(record.id)).toBe(0);
  });
});

import type { Database } from '@crm/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWorkspace, openTestDb, type TestDb } from '../testing/fixtures.ts';
import { createRecord } from './create-record.ts';
import { createRecords, createRecordsInput } from './create-records.ts';

let t: TestDb;
beforeAll(async () => {
  t = await openTestDb();
});
afterAll(() => t?.close());

describe('createRecords', () => {
  it('writes every valid item in one go, with the events the single create writes', async () => {
    const ws = await newWorkspace(t.db);
    const body = {
      folderId: ws.peopleFolderId,
      title: 'Ada',
      email: 'ada@example.com',
      data: { company: 'Engines' },
    };
    const { record } = await createRecord(t.db, ws.actor, body);
    const outcomes = await createRecords(t.db, ws.actor, createRecordsInput.parse({ items: [body, body] }));
    expect(outcomes.map((o) => o.ok && o.created)).toEqual([true, true]);
    const events = await t.query<{ payload: Record<string, unknown> }>(
      "select payload from events where workspace_id = $1 and type = 'record.created' order by occurred_at, id",
      [ws.actor.workspaceId],
    );
    const ids = [record.id, ...outcomes.map((o) => (o.ok ? o.data.id : ''))];
    expect(events.map((e) => e.payload.recordId)).toEqual(ids);
    const neutral = ({ payload }: { payload: Record<string, unknown> }) => ({
      ...payload,
      id: 'evt',
      occurredAt: 'at',
      recordId: 'rec',
      // The snapshot is the record as the API shows it, with its own id and timestamps.
      record: { ...(payload.record as object), id: 'rec', createdAt: 'at', updatedAt: 'at' },
    });
    expect(events.map(neutral)).toEqual([neutral(events[0]!), neutral(events[0]!), neutral(events[0]!)]);
  });

  it('falls back to one insert per item when PostgreSQL refuses one item, so the others are still written', async () => {
    const ws = await newWorkspace(t.db);
    // Text PostgreSQL cannot store: the REST and tRPC surfaces refuse it before this point,
    // which makes it a reliable way to have the database itself refuse one item here.
    const items = [
      { folderId: ws.peopleFolderId, title: 'Before' },
      { folderId: ws.peopleFolderId, title: 'Null \u0000 byte' },
      { folderId: ws.peopleFolderId, title: 'After' },
    ];
    const outcomes = await createRecords(t.db, ws.actor, createRecordsInput.parse({ items }));
    expect(outcomes.map((o) => o.ok)).toEqual([true, false, true]);
    const refused = outcomes[1]!;
    expect(refused.ok ? null : refused.error).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: expect.stringMatching(/refused this item's values \(SQLSTATE 22\w{3}\)/),
    });
    const rows = await t.query<{ title: string }>(
      'select title from records where workspace_id = $1 order by id',
      [ws.actor.workspaceId],
    );
    expect(rows.map((r) => r.title)).toEqual(['Before', 'After']);
    const events = await t.query('select id from events where workspace_id = $1', [ws.actor.workspaceId]);
    expect(events).toHaveLength(2);
  });

  it('answers an unknown folder, another workspace’s folder or owner exactly as the single create does', async () => {
    const ws = await newWorkspace(t.db);
    const elsewhere = await newWorkspace(t.db, 'Elsewhere');
    const items = [
      { folderId: ws.peopleFolderId, title: 'Here' },
      { folderId: elsewhere.peopleFolderId, title: 'There' },
      { folderId: 'fld_nope', title: 'Nowhere' },
      { folderId: ws.peopleFolderId, title: 'Here too', ownerId: elsewhere.actor.userId },
    ];
    const outcomes = await createRecords(t.db, ws.actor, createRecordsInput.parse({ items }));
    expect(outcomes.map((o) => o.ok)).toEqual([true, false, false, false]);
    for (const [i, item] of items.entries()) {
      if (i === 0) continue;
      const single = await createRecord(t.db, ws.actor, item).catch((error: unknown) => error);
      const outcome = outcomes[i]!;
      expect(outcome.ok ? null : outcome.error).toEqual(single);
    }
    const there = await t.query('select id from records where workspace_id = $1', [
      elsewhere.actor.workspaceId,
    ]);
    expect(there).toEqual([]);
  });

  it('writes nothing when the batch runs in a transaction that rolls back', async () => {
    const ws = await newWorkspace(t.db);
    await expect(
      t.db.transaction(async (tx) => {
        await createRecords(
          tx as unknown as Database,
          ws.actor,
          createRecordsInput.parse({ items: [{ folderId: ws.peopleFolderId, title: 'Ghost' }] }),
        );
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await t.query('select id from events where workspace_id = $1', [ws.actor.workspaceId])).toEqual(
      [],
    );
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeal } from '../deals/create-deal.ts';
import { createFolder } from '../folders/create-folder.ts';
import { findPipelines } from '../pipelines/find-pipelines.ts';
import { createRecord } from '../records/create-record.ts';
import { updateRecord } from '../records/update-record.ts';
import type { Actor } from '../shared/actor.ts';
import { newId } from '../shared/ids.ts';
import { expectDomainError, newWorkspace, openTestDb, type TestDb } from '../testing/fixtures.ts';
import { TEST_EVENT_TYPE } from '../webhooks/send-test-event.ts';
import { EVENT_RETENTION_DAYS, FEED_SETTLE_SECONDS, findEvents } from './find-events.ts';

/** The event feed (docs/webhooks.md, "The event feed"). */

let t: TestDb;

beforeAll(async () => {
  t = await openTestDb();
});
afterAll(() => t?.close());

const ids = (page: { data: { id: string }[] }) => page.data.map((e) => e.id);

/** Moves the workspace's events back a minute, order kept: past the feed's settling delay. */
const settle = (workspaceId: string) =>
  t.query(`update events set occurred_at = occurred_at - interval '1 minute' where workspace_id = $1`, [
    workspaceId,
  ]);

/** The workspace's events in the order the feed must list them. */
const stored = async (workspaceId: string) =>
  (
    await t.query<{ id: string }>('select id from events where workspace_id = $1 order by occurred_at, id', [
      workspaceId,
    ])
  ).map((row) => row.id);

/** An event written by hand, at `at` (SQL). */
async function insertEvent(workspaceId: string, at: string, type = 'record.created') {
  const id = newId('event');
  await t.query(
    `insert into events (workspace_id, id, type, payload, occurred_at) values ($1, $2, $3, '{}', ${at})`,
    [workspaceId, id, type],
  );
  return id;
}

async function newRecord(actor: Actor, folderId: string, title: string) {
  return (await createRecord(t.db, actor, { folderId, title })).record;
}

describe('findEvents', () => {
  it('lists settled events oldest first, keyset-paged, and echoes the cursor once caught up', async () => {
    const ws = await newWorkspace(t.db);
    for (const title of ['A', 'B', 'C']) await newRecord(ws.actor, ws.peopleFolderId, title);
    await settle(ws.actor.workspaceId);
    const all = await stored(ws.actor.workspaceId);
    expect(all).toHaveLength(3);

    const first = await findEvents(t.db, ws.actor, { pageSize: 2 });
    expect(ids(first)).toEqual(all.slice(0, 2));
    expect(first.data[0]).toMatchObject({ type: 'record.created', payload: { event: 'record.created' } });
    expect(first.meta).toMatchObject({ page: null, pageSize: 2, hasMore: true });
    const rest = await findEvents(t.db, ws.actor, { pageSize: 2, after: first.meta.nextCursor! });
    expect(ids(rest)).toEqual(all.slice(2));
    expect(rest.meta.hasMore).toBe(false);
    const idle = await findEvents(t.db, ws.actor, { after: rest.meta.nextCursor! });
    expect(idle.data).toEqual([]);
    expect(idle.meta.nextCursor).toBe(rest.meta.nextCursor);

    // Events of one instant are ordered by id.
    const at = `now() - interval '10 minutes'`;
    const same = [await insertEvent(ws.actor.workspaceId, at), await insertEvent(ws.actor.workspaceId, at)];
    expect(ids(await findEvents(t.db, ws.actor, { limit: 2 }))).toEqual([...same].sort());
  });

  it(`lists an event only once it is ${FEED_SETTLE_SECONDS} s old`, async () => {
    const ws = await newWorkspace(t.db);
    await newRecord(ws.actor, ws.peopleFolderId, 'Fresh');
    expect((await findEvents(t.db, ws.actor, {})).data).toEqual([]);
    // Without the delay, the same event is listed: only its age held it back.
    expect(ids(await findEvents(t.db, ws.actor, {}, { settleSeconds: 0 }))).toEqual(
      await stored(ws.actor.workspaceId),
    );
    await settle(ws.actor.workspaceId);
    expect(await findEvents(t.db, ws.actor, {}).then(ids)).toEqual(await stored(ws.actor.workspaceId));
  });

  it('holds back events newer than the start of a transaction still writing, so a poller skips none', async () => {
    const ws = await newWorkspace(t.db);
    const workspaceId = ws.actor.workspaceId;
    const early = await insertEvent(workspaceId, `now() - interval '1 minute'`);
    const writer = await t.db.$client.connect();
    try {
      await writer.query('begin');
      const inFlight = newId('event');
      await writer.query(
        `insert into events (workspace_id, id, type, payload, occurred_at) values ($1, $2, 'record.created', '{}', now())`,
        [workspaceId, inFlight],
      );
      const [{ started }] = (await writer.query<{ started: Date }>('select now() as started')).rows as [
        { started: Date },
      ];
      // Committed while the writer is still open, with a time after the writer's event: once the
      // writer commits, its event sorts before this one.
      const later = await insertEvent(
        workspaceId,
        `'${started.toISOString()}'::timestamptz + interval '1 millisecond'`,
      );
      // With no settling delay, only the open transaction can hold `later` back: it is in the past.
      const [{ past }] = (await t.query<{ past: boolean }>(
        `select now() > $1::timestamptz + interval '1 millisecond' as past`,
        [started],
      )) as [{ past: boolean }];
      expect(past).toBe(true);
      expect(ids(await findEvents(t.db, ws.actor, {}, { settleSeconds: 0 }))).toEqual([early]);
      await writer.query('commit');
      expect(ids(await findEvents(t.db, ws.actor, {}, { settleSeconds: 0 }))).toEqual([
        early,
        inFlight,
        later,
      ]);
    } finally {
      await writer.query('rollback').catch(() => {});
      writer.release();
    }
  });

  it('lists the kinds asked for (all for none, empty or *), never test events, and refuses an unknown kind', async () => {
    const ws = await newWorkspace(t.db);
    const workspaceId = ws.actor.workspaceId;
    const record = await newRecord(ws.actor, ws.peopleFolderId, 'Ada');
    await updateRecord(t.db, ws.actor, { id: record.id, title: 'Ada L.' });
    await insertEvent(workspaceId, 'now()', TEST_EVENT_TYPE);
    await settle(workspaceId);
    const kinds = async (types?: string) =>
      (await findEvents(t.db, ws.actor, types === undefined ? {} : { types })).data.map((e) => e.type);
    expect(await kinds()).toEqual(['record.created', 'record.updated']);
    expect(await kinds('')).toEqual(['record.created', 'record.updated']);
    expect(await kinds('*')).toEqual(['record.created', 'record.updated']);
    expect(await kinds(' record.updated ,deal.created')).toEqual(['record.updated']);
    const error = await expectDomainError(
      findEvents(t.db, ws.actor, { types: 'record.deleted' }),
      'VALIDATION_FAILED',
    );
    expect(error.details?.[0]?.path).toBe('types');
  });

  it(`leaves out events older than ${EVENT_RETENTION_DAYS} days, pruned or not`, async () => {
    const ws = await newWorkspace(t.db);
    await insertEvent(ws.actor.workspaceId, `now() - interval '${EVENT_RETENTION_DAYS + 1} days'`);
    const kept = await insertEvent(
      ws.actor.workspaceId,
      `now() - interval '${EVENT_RETENTION_DAYS - 1} days'`,
    );
    expect(ids(await findEvents(t.db, ws.actor, {}))).toEqual([kept]);
  });

  it('refuses limit and pageSize that disagree, and a cursor it did not issue', async () => {
    const ws = await newWorkspace(t.db);
    const both = await expectDomainError(
      findEvents(t.db, ws.actor, { limit: 5, pageSize: 6 }),
      'VALIDATION_FAILED',
    );
    expect(both.details?.[0]?.path).toBe('limit');
    expect((await findEvents(t.db, ws.actor, { limit: 5, pageSize: 5 })).meta.pageSize).toBe(5);
    for (const after of [
      'not-a-cursor',
      Buffer.from('["2026-01-01T00:00:00Z","rec_x"]').toString('base64url'),
    ]) {
      const bad = await expectDomainError(findEvents(t.db, ws.actor, { after }), 'VALIDATION_FAILED');
      expect(bad.details?.[0]?.path).toBe('after');
    }
  });
});

describe('the feed of another workspace or folder', () => {
  it('shows a workspace none of another’s events, and a folder-limited actor its folders’ and those of no record', async () => {
    const ours = await newWorkspace(t.db, 'Ours');
    const theirs = await newWorkspace(t.db, 'Theirs');
    await newRecord(theirs.actor, theirs.peopleFolderId, 'Not ours');
    const inside = (await createFolder(t.db, ours.actor, { name: 'Inside' })).id;
    const seen = await newRecord(ours.actor, inside, 'Seen');
    const hidden = await newRecord(ours.actor, ours.peopleFolderId, 'Hidden');
    const pipelineId = (await findPipelines(t.db, ours.actor, {})).data[0]!.id;
    const loose = await createDeal(t.db, ours.actor, { pipelineId, title: 'Loose' });
    const linked = await createDeal(t.db, ours.actor, { pipelineId, title: 'Linked', recordId: hidden.id });
    await settle(ours.actor.workspaceId);
    await settle(theirs.actor.workspaceId);

    const subjects = (page: Awaited<ReturnType<typeof findEvents>>) =>
      page.data.map((e) => {
        const payload = e.payload as Record<string, unknown>;
        return `${e.type} ${payload.dealId ?? payload.recordId}`;
      });
    const everything = subjects(await findEvents(t.db, ours.actor, {}));
    expect(everything).toHaveLength(4);
    expect(everything).toEqual(
      expect.arrayContaining([`record.created ${hidden.id}`, `deal.created ${linked.id}`]),
    );
    const limited: Actor = { ...ours.actor, folderIds: [inside] };
    expect(subjects(await findEvents(t.db, limited, {}))).toEqual([
      `record.created ${seen.id}`,
      `deal.created ${loose.id}`,
    ]);
    expect(subjects(await findEvents(t.db, theirs.actor, {}))).toHaveLength(1);
  });
});

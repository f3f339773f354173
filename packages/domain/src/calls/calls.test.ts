import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecord } from '../records/create-record.ts';
import { getRecord } from '../records/get-record.ts';
import { trashRecord } from '../records/trash-record.ts';
import { expectDomainError, newWorkspace, openTestDb, type TestDb } from '../testing/fixtures.ts';
import { createCall } from './create-call.ts';
import { findCalls } from './find-calls.ts';
import { getCall } from './get-call.ts';
import { createCallInput, MAX_CALL_DURATION } from './schemas.ts';

/** Call logs on records (docs/api.md, "Comments and call logs"). */

let t: TestDb;

beforeAll(async () => {
  t = await openTestDb();
});
afterAll(() => t?.close());

async function setup(phone: string | null = '+1 555 0100') {
  const ws = await newWorkspace(t.db);
  const { record } = await createRecord(t.db, ws.actor, { folderId: ws.peopleFolderId, title: 'Ada', phone });
  return { ws, record };
}

const eventCount = (workspaceId: string) =>
  t.query<{ n: number }>('select count(*)::int as n from events where workspace_id = $1', [workspaceId]);

describe('createCall', () => {
  it('logs a call with the defaults: OUTBOUND, CONNECTED, now, the record’s phone, the actor as author', async () => {
    const { ws, record } = await setup();
    const [{ now }] = (await t.query<{ now: Date }>('select now()')) as [{ now: Date }];
    const call = await createCall(t.db, ws.actor, { id: record.id });
    expect(call).toMatchObject({
      recordId: record.id,
      direction: 'OUTBOUND',
      outcome: 'CONNECTED',
      duration: null,
      phone: '+1 555 0100',
      notes: null,
      authorId: ws.actor.userId,
    });
    expect(call.id).toMatch(/^call_/);
    expect(Date.parse(call.calledAt)).toBeGreaterThanOrEqual(now.getTime());
    expect(call.calledAt).toBe(call.createdAt);
    expect(await getCall(t.db, ws.actor, { id: record.id, callId: call.id })).toEqual(call);
  });

  it('stores what it is given; a null or empty phone or notes stores none', async () => {
    const { ws, record } = await setup();
    const given = await createCall(t.db, ws.actor, {
      id: record.id,
      direction: 'INBOUND',
      outcome: 'VOICEMAIL',
      duration: 95,
      phone: '+44 20 7946 0000',
      notes: 'Left a message',
      calledAt: '2026-01-02T09:30:00+01:00',
    });
    expect(given).toMatchObject({
      direction: 'INBOUND',
      outcome: 'VOICEMAIL',
      duration: 95,
      phone: '+44 20 7946 0000',
      notes: 'Left a message',
      calledAt: '2026-01-02T08:30:00.000Z',
    });
    expect(await createCall(t.db, ws.actor, { id: record.id, phone: null, notes: '' })).toMatchObject({
      phone: null,
      notes: null,
    });
    expect(await createCall(t.db, ws.actor, { id: record.id, phone: '' })).toMatchObject({ phone: null });
    const { record: noPhone } = await createRecord(t.db, ws.actor, {
      folderId: ws.peopleFolderId,
      title: 'Bo',
    });
    expect(await createCall(t.db, ws.actor, { id: noPhone.id })).toMatchObject({ phone: null });
  });

  it('refuses a duration out of range or not whole, an unknown direction or outcome, and unknown fields', () => {
    const problems = (input: Record<string, unknown>) =>
      createCallInput
        .safeParse({ id: 'rec_01jq3v6f6ve7s9t8m1k2c3d4e5', ...input })
        .error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    expect(problems({ duration: -1 })).toEqual(['duration: must be 0 or more']);
    expect(problems({ duration: 1.5 })).toEqual(['duration: must be a whole number of seconds']);
    expect(problems({ duration: MAX_CALL_DURATION + 1 })).toEqual([
      `duration: must be at most ${MAX_CALL_DURATION} (7 days)`,
    ]);
    expect(problems({ direction: 'SIDEWAYS' })?.[0]).toMatch(/^direction: /);
    expect(problems({ outcome: 'MAYBE' })?.[0]).toMatch(/^outcome: /);
    expect(problems({ direction: null })?.[0]).toMatch(/^direction: /);
    expect(problems({ calledAt: '2026-02-30T10:00:00Z' })?.[0]).toMatch(/^calledAt: /);
    expect(problems({ author: 'someone' })).toHaveLength(1);
    expect(problems({ duration: MAX_CALL_DURATION, notes: '  ' })).toBeUndefined();
  });

  it('writes no event and leaves the record’s updatedAt as it was', async () => {
    const { ws, record } = await setup();
    const before = await eventCount(ws.actor.workspaceId);
    await createCall(t.db, ws.actor, { id: record.id, notes: 'Hello' });
    expect(await eventCount(ws.actor.workspaceId)).toEqual(before);
    expect((await getRecord(t.db, ws.actor, { id: record.id })).updatedAt).toBe(record.updatedAt);
  });
});

describe('findCalls', () => {
  it('lists a record’s calls oldest first by when they were logged, page by page', async () => {
    const { ws, record } = await setup();
    const { record: other } = await createRecord(t.db, ws.actor, {
      folderId: ws.peopleFolderId,
      title: 'Other',
    });
    const made = [];
    for (const notes of ['first', 'second', 'third']) {
      made.push(await createCall(t.db, ws.actor, { id: record.id, notes, calledAt: '2020-01-01T00:00:00Z' }));
    }
    await createCall(t.db, ws.actor, { id: other.id, notes: 'elsewhere' });
    const all = await findCalls(t.db, ws.actor, { id: record.id });
    expect(all.data.map((c) => c.notes)).toEqual(['first', 'second', 'third']);
    const first = await findCalls(t.db, ws.actor, { id: record.id, pageSize: 2 });
    expect(first.data.map((c) => c.id)).toEqual([made[0]!.id, made[1]!.id]);
    expect(first.meta.hasMore).toBe(true);
    const rest = await findCalls(t.db, ws.actor, { id: record.id, cursor: first.meta.nextCursor! });
    expect(rest.data.map((c) => c.id)).toEqual([made[2]!.id]);
    expect(rest.meta.hasMore).toBe(false);
  });

  it('finds nothing on a record in Trash, an unknown record, or a call of another record', async () => {
    const { ws, record } = await setup();
    const { record: other } = await createRecord(t.db, ws.actor, {
      folderId: ws.peopleFolderId,
      title: 'Other',
    });
    const call = await createCall(t.db, ws.actor, { id: record.id });
    await expectDomainError(getCall(t.db, ws.actor, { id: other.id, callId: call.id }), 'NOT_FOUND');
    await expectDomainError(
      getCall(t.db, ws.actor, { id: record.id, callId: 'call_01jq3v6f6ve7s9t8m1k2c3d4e5' }),
      'NOT_FOUND',
    );
    await expectDomainError(findCalls(t.db, ws.actor, { id: 'rec_01jq3v6f6ve7s9t8m1k2c3d4e5' }), 'NOT_FOUND');
    await trashRecord(t.db, ws.actor, record.id);
    await expectDomainError(findCalls(t.db, ws.actor, { id: record.id }), 'NOT_FOUND');
    await expectDomainError(getCall(t.db, ws.actor, { id: record.id, callId: call.id }), 'NOT_FOUND');
    await expectDomainError(createCall(t.db, ws.actor, { id: record.id }), 'NOT_FOUND');
  });
});

describe('calls of another workspace', () => {
  it('cannot be logged, listed or read', async () => {
    const { ws: theirs, record } = await setup();
    const ours = await newWorkspace(t.db, 'Ours');
    const call = await createCall(t.db, theirs.actor, { id: record.id });
    await expectDomainError(createCall(t.db, ours.actor, { id: record.id }), 'NOT_FOUND');
    await expectDomainError(findCalls(t.db, ours.actor, { id: record.id }), 'NOT_FOUND');
    await expectDomainError(getCall(t.db, ours.actor, { id: record.id, callId: call.id }), 'NOT_FOUND');
    expect((await findCalls(t.db, theirs.actor, { id: record.id })).data).toEqual([call]);
  });

  it('are hidden from a key limited to other folders', async () => {
    const { ws, record } = await setup();
    const limited = { ...ws.actor, folderIds: ['fld_01jq3v6f6ve7s9t8m1k2c3d4e5'] };
    await createCall(t.db, ws.actor, { id: record.id });
    await expectDomainError(findCalls(t.db, limited, { id: record.id }), 'NOT_FOUND');
    await expectDomainError(createCall(t.db, limited, { id: record.id }), 'NOT_FOUND');
  });
});

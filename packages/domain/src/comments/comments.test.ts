import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecord } from '../records/create-record.ts';
import { getRecord } from '../records/get-record.ts';
import { restoreRecord } from '../records/restore-record.ts';
import { trashRecord } from '../records/trash-record.ts';
import { expectDomainError, newWorkspace, openTestDb, type TestDb } from '../testing/fixtures.ts';
import { createComment } from './create-comment.ts';
import { findComments } from './find-comments.ts';
import { getComment } from './get-comment.ts';
import { createCommentInput, MAX_COMMENT_LENGTH } from './schemas.ts';

/** Comments on records (docs/api.md, "Comments and call logs"). */

let t: TestDb;

beforeAll(async () => {
  t = await openTestDb();
});
afterAll(() => t?.close());

async function setup() {
  const ws = await newWorkspace(t.db);
  const { record } = await createRecord(t.db, ws.actor, { folderId: ws.peopleFolderId, title: 'Ada' });
  return { ws, record };
}

const eventCount = (workspaceId: string) =>
  t.query<{ n: number }>('select count(*)::int as n from events where workspace_id = $1', [workspaceId]);

describe('createComment', () => {
  it('adds a comment signed with the author’s name, which it keeps when the user is renamed', async () => {
    const { ws, record } = await setup();
    const comment = await createComment(t.db, ws.actor, { id: record.id, text: 'Met at the fair' });
    expect(comment).toMatchObject({
      recordId: record.id,
      text: 'Met at the fair',
      author: ws.actor.userName,
      authorId: ws.actor.userId,
    });
    expect(comment.id).toMatch(/^note_/);
    await t.query('update users set name = $1 where id = $2', ['Someone Else', ws.actor.userId]);
    expect(await getComment(t.db, ws.actor, { id: record.id, commentId: comment.id })).toEqual(comment);
  });

  it('takes the text trimmed, 1 to MAX_COMMENT_LENGTH characters, and nothing else', () => {
    const parse = (input: Record<string, unknown>) =>
      createCommentInput.safeParse({ id: 'rec_01jq3v6f6ve7s9t8m1k2c3d4e5', ...input });
    expect(parse({ text: '  Hello  ' }).data?.text).toBe('Hello');
    const messages = (input: Record<string, unknown>) =>
      parse(input).error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    expect(messages({ text: '   ' })).toEqual(['text: must not be empty']);
    expect(messages({ text: '' })).toEqual(['text: must not be empty']);
    expect(messages({ text: 'x'.repeat(MAX_COMMENT_LENGTH + 1) })).toEqual([
      `text: must be at most ${MAX_COMMENT_LENGTH} characters`,
    ]);
    expect(messages({ text: 'x'.repeat(MAX_COMMENT_LENGTH) })).toBeUndefined();
    expect(messages({})).toHaveLength(1);
    expect(messages({ text: 'Hi', author: 'Mallory' })).toHaveLength(1);
  });

  it('writes no event and leaves the record’s updatedAt as it was', async () => {
    const { ws, record } = await setup();
    const before = await eventCount(ws.actor.workspaceId);
    await createComment(t.db, ws.actor, { id: record.id, text: 'Quiet' });
    expect(await eventCount(ws.actor.workspaceId)).toEqual(before);
    expect((await getRecord(t.db, ws.actor, { id: record.id })).updatedAt).toBe(record.updatedAt);
  });

  it('refuses a record in Trash, and takes comments again once it is restored', async () => {
    const { ws, record } = await setup();
    const kept = await createComment(t.db, ws.actor, { id: record.id, text: 'Before' });
    await trashRecord(t.db, ws.actor, record.id);
    await expectDomainError(createComment(t.db, ws.actor, { id: record.id, text: 'During' }), 'NOT_FOUND');
    await expectDomainError(findComments(t.db, ws.actor, { id: record.id }), 'NOT_FOUND');
    await expectDomainError(getComment(t.db, ws.actor, { id: record.id, commentId: kept.id }), 'NOT_FOUND');
    await restoreRecord(t.db, ws.actor, record.id);
    await createComment(t.db, ws.actor, { id: record.id, text: 'After' });
    expect((await findComments(t.db, ws.actor, { id: record.id })).data.map((c) => c.text)).toEqual([
      'Before',
      'After',
    ]);
  });
});

describe('findComments', () => {
  it('lists a record’s comments oldest first, page by page, and only that record’s', async () => {
    const { ws, record } = await setup();
    const { record: other } = await createRecord(t.db, ws.actor, {
      folderId: ws.peopleFolderId,
      title: 'Bo',
    });
    const made = [];
    for (const text of ['one', 'two', 'three', 'four']) {
      made.push(await createComment(t.db, ws.actor, { id: record.id, text }));
    }
    await createComment(t.db, ws.actor, { id: other.id, text: 'elsewhere' });
    expect((await findComments(t.db, ws.actor, { id: record.id })).data.map((c) => c.text)).toEqual([
      'one',
      'two',
      'three',
      'four',
    ]);
    const first = await findComments(t.db, ws.actor, { id: record.id, pageSize: 3 });
    expect(first.data.map((c) => c.id)).toEqual(made.slice(0, 3).map((c) => c.id));
    expect(first.meta.hasMore).toBe(true);
    const rest = await findComments(t.db, ws.actor, {
      id: record.id,
      pageSize: 3,
      cursor: first.meta.nextCursor!,
    });
    expect(rest.data.map((c) => c.id)).toEqual([made[3]!.id]);
    expect(rest.meta.hasMore).toBe(false);
    const second = await findComments(t.db, ws.actor, { id: record.id, page: 2, pageSize: 3 });
    expect(second.data.map((c) => c.id)).toEqual([made[3]!.id]);
    await expectDomainError(
      getComment(t.db, ws.actor, { id: other.id, commentId: made[0]!.id }),
      'NOT_FOUND',
    );
  });
});

describe('comments of another workspace', () => {
  it('cannot be added, listed or read', async () => {
    const { ws: theirs, record } = await setup();
    const ours = await newWorkspace(t.db, 'Ours');
    const comment = await createComment(t.db, theirs.actor, { id: record.id, text: 'Private' });
    await expectDomainError(createComment(t.db, ours.actor, { id: record.id, text: 'Hi' }), 'NOT_FOUND');
    await expectDomainError(findComments(t.db, ours.actor, { id: record.id }), 'NOT_FOUND');
    await expectDomainError(
      getComment(t.db, ours.actor, { id: record.id, commentId: comment.id }),
      'NOT_FOUND',
    );
    expect((await findComments(t.db, theirs.actor, { id: record.id })).data).toEqual([comment]);
  });

  it('are hidden from a key limited to other folders', async () => {
    const { ws, record } = await setup();
    await createComment(t.db, ws.actor, { id: record.id, text: 'Folder-bound' });
    const limited = { ...ws.actor, folderIds: ['fld_01jq3v6f6ve7s9t8m1k2c3d4e5'] };
    await expectDomainError(findComments(t.db, limited, { id: record.id }), 'NOT_FOUND');
    await expectDomainError(createComment(t.db, limited, { id: record.id, text: 'Hi' }), 'NOT_FOUND');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, findApiKeys, revokeApiKey } from '../api-keys/index.ts';
import { findFolders } from '../folders/find-folders.ts';
import { getFolder } from '../folders/get-folder.ts';
import { addFolderField, changeFolderField, removeFolderField, renameFolder } from '../folders/index.ts';
import { createRecord } from '../records/create-record.ts';
import { findRecords } from '../records/find-records.ts';
import { getRecord } from '../records/get-record.ts';
import { restoreRecord } from '../records/restore-record.ts';
import { trashRecord } from '../records/trash-record.ts';
import { updateRecord } from '../records/update-record.ts';
import {
  expectDomainError,
  newWorkspace,
  openTestDb,
  type TestDb,
  type TestWorkspace,
} from '../testing/fixtures.ts';

let t: TestDb;
let a: TestWorkspace;
let b: TestWorkspace;
let aRecordId: string;
let aTrashedId: string;

beforeAll(async () => {
  t = await openTestDb();
  a = await newWorkspace(t.db, 'A');
  b = await newWorkspace(t.db, 'B');
  const rec = await createRecord(t.db, a.actor, {
    folderId: a.peopleFolderId,
    title: 'Secret of A',
    email: 'shared@example.com',
    data: { company: 'Acorp' },
  });
  aRecordId = rec.record.id;
  const trashed = await createRecord(t.db, a.actor, { folderId: a.peopleFolderId, title: 'Trash of A' });
  aTrashedId = trashed.record.id;
  await trashRecord(t.db, a.actor, aTrashedId);
});
afterAll(() => t?.close());

describe("an actor of workspace B and A's data", () => {
  it("gets NOT_FOUND for A's records, whatever the action", async () => {
    await expectDomainError(getRecord(t.db, b.actor, { id: aRecordId }), 'NOT_FOUND');
    await expectDomainError(updateRecord(t.db, b.actor, { id: aRecordId, title: 'Hijacked' }), 'NOT_FOUND');
    await expectDomainError(trashRecord(t.db, b.actor, aRecordId), 'NOT_FOUND');
    await expectDomainError(restoreRecord(t.db, b.actor, aTrashedId), 'NOT_FOUND');
    const rec = await getRecord(t.db, a.actor, { id: aRecordId });
    expect(rec).toMatchObject({ title: 'Secret of A', trashedAt: null });
  });

  it("gets NOT_FOUND for A's folders, whatever the action", async () => {
    const id = a.peopleFolderId;
    await expectDomainError(getFolder(t.db, b.actor, id), 'NOT_FOUND');
    await expectDomainError(renameFolder(t.db, b.actor, { id, name: 'Mine' }), 'NOT_FOUND');
    await expectDomainError(
      addFolderField(t.db, b.actor, { id, key: 'x', label: 'X', type: 'TEXT' }),
      'NOT_FOUND',
    );
    await expectDomainError(
      changeFolderField(t.db, b.actor, { id, key: 'company', label: 'Y' }),
      'NOT_FOUND',
    );
    await expectDomainError(removeFolderField(t.db, b.actor, { id, key: 'company' }), 'NOT_FOUND');
    await expectDomainError(findRecords(t.db, b.actor, { folderId: id }), 'NOT_FOUND');
    const folder = await getFolder(t.db, a.actor, id);
    expect(folder.name).toBe('People');
    expect(folder.fields.map((f) => f.key)).toEqual(['company', 'lifecycle']);
  });

  it("cannot create a record in A's folder", async () => {
    const error = await expectDomainError(
      createRecord(t.db, b.actor, { folderId: a.peopleFolderId, title: 'Intruder' }),
      'VALIDATION_FAILED',
    );
    expect(error.details?.[0]?.path).toBe('folderId');
  });

  it("never upserts into A's record of the same email", async () => {
    const result = await createRecord(t.db, b.actor, {
      folderId: b.peopleFolderId,
      title: 'B person',
      email: 'shared@example.com',
      upsert: 'email',
    });
    expect(result.created).toBe(true);
    expect((await getRecord(t.db, a.actor, { id: aRecordId })).title).toBe('Secret of A');
  });

  it("cannot make A's owner the owner of B's record", async () => {
    await expectDomainError(
      createRecord(t.db, b.actor, { folderId: b.peopleFolderId, title: 'X', ownerId: a.actor.userId }),
      'VALIDATION_FAILED',
    );
  });

  it("never sees A's rows in its lists", async () => {
    const records = await findRecords(t.db, b.actor, { pageSize: 200 });
    const trash = await findRecords(t.db, b.actor, { trashed: 'true' });
    const searched = await findRecords(t.db, b.actor, { q: 'a' });
    for (const page of [records, trash, searched]) {
      expect(page.data.every((r) => r.id !== aRecordId && r.id !== aTrashedId)).toBe(true);
    }
    expect(trash.data).toEqual([]);
    const folders = await findFolders(t.db, b.actor, {});
    expect(folders.data.map((f) => f.id)).toEqual([b.peopleFolderId]);
    // A sees its own rows, so the filters above are not simply empty.
    expect((await findRecords(t.db, a.actor, { q: 'secret' })).data.map((r) => r.id)).toEqual([aRecordId]);
  });

  it("neither lists nor revokes A's API keys", async () => {
    const { key } = await createApiKey(t.db, {
      workspaceId: a.actor.workspaceId,
      userId: a.actor.userId,
      name: 'A key',
    });
    expect((await findApiKeys(t.db, b.actor)).map((k) => k.id)).not.toContain(key.id);
    await expectDomainError(revokeApiKey(t.db, b.actor, key.id), 'NOT_FOUND');
    expect((await findApiKeys(t.db, a.actor)).find((k) => k.id === key.id)?.revokedAt).toBeNull();
  });

  it("cannot issue a key in A's workspace for B's user", async () => {
    await expectDomainError(
      createApiKey(t.db, { workspaceId: a.actor.workspaceId, userId: b.actor.userId, name: 'Sneaky' }),
      'VALIDATION_FAILED',
    );
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, revokeApiKey } from '../api-keys/index.ts';
import { addFolderField, removeFolderField } from '../folders/index.ts';
import { createRecord } from '../records/create-record.ts';
import { purgeTrash } from '../records/purge-trash.ts';
import { trashRecord } from '../records/trash-record.ts';
import { systemProvenance } from '../shared/actor.ts';
import { newWorkspace, openTestDb, type TestDb } from '../testing/fixtures.ts';
import { acceptInvitation, createInvitation, revokeInvitation, setPassword, signIn } from '../users/index.ts';
import { createWebhook } from '../webhooks/create-webhook.ts';
import { deleteWebhook } from '../webhooks/delete-webhook.ts';
import { updateWebhook } from '../webhooks/update-webhook.ts';
import { createWorkflow, deleteWorkflow, updateWorkflow } from '../workflows/index.ts';
import { createWorkflowInput, updateWorkflowInput } from '../workflows/schemas.ts';
import { findAuditLog, pruneAuditLog } from './find-audit-log.ts';

let t: TestDb;

beforeAll(async () => {
  t = await openTestDb();
});
afterAll(() => t?.close());

const services = { baseUrl: '', checkOutboundUrl: async () => {} };

describe('the audit log', () => {
  it('records key, webhook and folder changes with who made them, newest first', async () => {
    const ws = await newWorkspace(t.db);
    const { key } = await createApiKey(
      t.db,
      {
        workspaceId: ws.actor.workspaceId,
        userId: ws.actor.userId,
        name: 'Zapier',
        scopes: ['records:read'],
      },
      ws.actor,
    );
    await revokeApiKey(t.db, ws.actor, key.id);
    const hook = await createWebhook(
      t.db,
      ws.actor,
      {
        url: 'https://hooks.example.com/x',
        events: ['record.created'],
        headers: { Authorization: 'secret' },
      },
      services,
    );
    await updateWebhook(t.db, ws.actor, { id: hook.id, headers: { Authorization: 'other' } }, services);
    await deleteWebhook(t.db, ws.actor, hook.id);
    await addFolderField(t.db, ws.actor, { id: ws.peopleFolderId, key: 'tier', label: 'Tier', type: 'TEXT' });
    await removeFolderField(t.db, ws.actor, { id: ws.peopleFolderId, key: 'tier' });

    const log = await findAuditLog(t.db, ws.actor, {});
    expect(log.data.map((e) => e.action)).toEqual([
      'folder.field_removed',
      'folder.field_added',
      'webhook.deleted',
      'webhook.updated',
      'webhook.created',
      'api_key.revoked',
      'api_key.created',
    ]);
    for (const entry of log.data) {
      expect(entry.actor).toEqual({ type: 'user', id: ws.actor.userId, name: ws.actor.userName });
    }
    expect(log.data.at(-1)).toMatchObject({
      target: { type: 'api_key', id: key.id },
      details: { name: 'Zapier', scopes: ['records:read'], folderIds: null },
    });
    // A header value may be a token: the log says it changed, never what it is.
    const updated = log.data.find((e) => e.action === 'webhook.updated')!;
    expect(JSON.stringify(updated.details)).not.toContain('other');
    expect(updated.details).toEqual({ headers: '(changed)' });

    const narrowed = await findAuditLog(t.db, ws.actor, { action: 'webhook.deleted' });
    expect(narrowed.data).toHaveLength(1);
    const first = await findAuditLog(t.db, ws.actor, { pageSize: 3 });
    const rest = await findAuditLog(t.db, ws.actor, { cursor: first.meta.nextCursor! });
    expect([...first.data, ...rest.data].map((e) => e.id)).toEqual(log.data.map((e) => e.id));
    // Another workspace sees none of it.
    const other = await newWorkspace(t.db, 'Other');
    expect((await findAuditLog(t.db, other.actor, {})).data).toEqual([]);
  });

  it('records sign-ins and failed sign-ins of a member, and purges by the service', async () => {
    const ws = await newWorkspace(t.db);
    const [owner] = await t.query<{ email: string }>('select email from users where id = $1', [
      ws.actor.userId,
    ]);
    await setPassword(t.db, owner!.email, 'a long enough password');
    await signIn(
      t.db,
      { email: owner!.email, password: 'a long enough password' },
      { address: '203.0.113.9' },
    );
    await signIn(
      t.db,
      { email: owner!.email, password: 'wrong password!!' },
      { address: '203.0.113.9' },
    ).catch(() => undefined);
    const { record } = await createRecord(t.db, ws.actor, { folderId: ws.peopleFolderId, title: 'Gone' });
    await trashRecord(t.db, ws.actor, record.id);
    await t.query(`update records set trashed_at = now() - interval '40 days' where id = $1`, [record.id]);
    await purgeTrash(t.db);

    const log = await findAuditLog(t.db, ws.actor, {});
    expect(log.data.map((e) => e.action)).toEqual([
      'records.purged',
      'user.sign_in_failed',
      'user.signed_in',
    ]);
    expect(log.data[0]).toMatchObject({
      actor: systemProvenance('purge_trash').actor,
      source: 'system',
      details: { count: 1 },
    });
    expect(log.data[1]).toMatchObject({
      actor: { type: 'user', id: ws.actor.userId },
      source: 'web',
      details: { address: '203.0.113.9', reason: 'wrong-credentials' },
    });
    expect((await findAuditLog(t.db, ws.actor, { actorType: 'system' })).data).toHaveLength(1);
    expect((await findAuditLog(t.db, ws.actor, { actorId: ws.actor.userId })).data).toHaveLength(2);
  });

  it('records workflow changes and deletion, invitations and a member joining', async () => {
    const ws = await newWorkspace(t.db);
    const options = services;
    const workflow = await createWorkflow(
      t.db,
      ws.actor,
      createWorkflowInput.parse({
        name: 'Greet',
        trigger: { type: 'record.created' },
        actions: [{ type: 'ADD_COMMENT', text: 'Hello' }],
      }),
      options,
    );
    await updateWorkflow(
      t.db,
      ws.actor,
      updateWorkflowInput.parse({ id: workflow.id, name: 'Greet warmly', enabled: false }),
      options,
    );
    await deleteWorkflow(t.db, ws.actor, workflow.id);
    const email = `joiner-${Date.now()}@example.com`;
    const revoked = await createInvitation(t.db, ws.actor, { email, role: 'ADMIN' });
    await revokeInvitation(t.db, ws.actor, revoked.invitation.id);
    const invited = await createInvitation(t.db, ws.actor, { email, role: 'MEMBER' });
    await acceptInvitation(
      t.db,
      { token: invited.token, name: 'Jo Iner', password: 'a long enough password' },
      { address: '203.0.113.7', requestId: 'req-join' },
    );
    const [joined] = await t.query<{ id: string }>('select id from users where email = $1', [email]);

    const log = await findAuditLog(t.db, ws.actor, {});
    expect(log.data.map((e) => e.action)).toEqual([
      'member.joined',
      'invitation.created',
      'invitation.revoked',
      'invitation.created',
      'workflow.deleted',
      'workflow.updated',
      'workflow.created',
    ]);
    const byOwner = { type: 'user', id: ws.actor.userId, name: ws.actor.userName };
    const [memberJoined, invitationCreated, invitationRevoked, , workflowDeleted, workflowUpdated] = log.data;
    expect(workflowUpdated).toMatchObject({
      actor: byOwner,
      target: { type: 'workflow', id: workflow.id },
      details: { changed: ['name', 'enabled'], name: 'Greet warmly', enabled: false },
    });
    expect(workflowDeleted).toMatchObject({
      actor: byOwner,
      target: { type: 'workflow', id: workflow.id },
      details: { name: 'Greet warmly' },
    });
    expect(invitationRevoked).toMatchObject({
      actor: byOwner,
      target: { type: 'invitation', id: revoked.invitation.id },
      details: { email },
    });
    expect(invitationCreated).toMatchObject({
      actor: byOwner,
      target: { type: 'invitation', id: invited.invitation.id },
      details: { email, role: 'MEMBER' },
    });
    // Joining is the new member's own action, from the web app.
    expect(memberJoined).toMatchObject({
      actor: { type: 'user', id: joined!.id, name: 'Jo Iner' },
      source: 'web',
      requestId: 'req-join',
      target: { type: 'user', id: joined!.id },
      details: { email, role: 'MEMBER', invitationId: invited.invitation.id },
    });
    // No token is ever in the log.
    expect(JSON.stringify(log.data)).not.toContain(invited.token);
  });

  it('narrows to the entries at or after `since`', async () => {
    const ws = await newWorkspace(t.db);
    const key = (name: string) =>
      createApiKey(t.db, { workspaceId: ws.actor.workspaceId, userId: ws.actor.userId, name }, ws.actor);
    await key('an hour ago');
    await key('a minute ago');
    await key('now');
    await t.query(
      `update audit_log set at = now() - (details ->> 'name' = 'an hour ago')::int * interval '1 hour'
                                    - (details ->> 'name' = 'a minute ago')::int * interval '1 minute'
        where workspace_id = $1`,
      [ws.actor.workspaceId],
    );
    const names = async (since: string) =>
      (await findAuditLog(t.db, ws.actor, { since })).data.map((e) => e.details.name);
    const [row] = await t.query<{ at: Date }>(
      `select at from audit_log where workspace_id = $1 and details ->> 'name' = 'a minute ago'`,
      [ws.actor.workspaceId],
    );
    // At or after: the entry at that very instant is in.
    expect(await names(row!.at.toISOString())).toEqual(['now', 'a minute ago']);
    expect(await names(new Date(row!.at.getTime() + 1).toISOString())).toEqual(['now']);
    expect(await names(new Date(Date.now() - 2 * 3_600_000).toISOString())).toEqual([
      'now',
      'a minute ago',
      'an hour ago',
    ]);
    expect(await names(new Date(Date.now() + 60_000).toISOString())).toEqual([]);
  });

  it('keeps entries for the retention, then removes them', async () => {
    const ws = await newWorkspace(t.db);
    await createApiKey(
      t.db,
      { workspaceId: ws.actor.workspaceId, userId: ws.actor.userId, name: 'old' },
      ws.actor,
    );
    await createApiKey(
      t.db,
      { workspaceId: ws.actor.workspaceId, userId: ws.actor.userId, name: 'new' },
      ws.actor,
    );
    await t.query(
      `update audit_log set at = now() - interval '400 days' where workspace_id = $1 and details ->> 'name' = 'old'`,
      [ws.actor.workspaceId],
    );
    expect(await pruneAuditLog(t.db, 365)).toBeGreaterThanOrEqual(1);
    const left = await findAuditLog(t.db, ws.actor, {});
    expect(left.data.map((e) => e.details.name)).toEqual(['new']);
  });
});

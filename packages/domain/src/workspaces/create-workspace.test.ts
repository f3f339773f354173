import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFolders } from '../folders/find-folders.ts';
import { isId } from '../shared/ids.ts';
import { newWorkspace, openTestDb, type TestDb } from '../testing/fixtures.ts';
import { createWorkspace } from './create-workspace.ts';

let t: TestDb;

beforeAll(async () => {
  t = await openTestDb();
});
afterAll(() => t?.close());

describe('createWorkspace', () => {
  it('starts with the folder "People" holding company (TEXT) and lifecycle (SELECT)', async () => {
    const { actor } = await newWorkspace(t.db);
    const folders = await findFolders(t.db, actor, {});
    expect(folders.data).toHaveLength(1);
    const people = folders.data[0]!;
    expect(people.name).toBe('People');
    expect(people.type).toBe('CUSTOM');
    expect(people.fields.map((f) => [f.key, f.type])).toEqual([
      ['company', 'TEXT'],
      ['lifecycle', 'SELECT'],
    ]);
    expect(people.fields[1]?.options?.length).toBeGreaterThan(0);
  });

  it('starts with the pipeline "Sales" and its stages Lead, Qualified, Proposal, Won, Lost in order', async () => {
    const { actor } = await newWorkspace(t.db);
    const pipelines = await t.query<{ id: string; name: string }>(
      'select id, name from pipelines where workspace_id = $1',
      [actor.workspaceId],
    );
    expect(pipelines.map((p) => p.name)).toEqual(['Sales']);
    expect(isId('pipeline', pipelines[0]?.id)).toBe(true);
    const stages = await t.query<{ id: string; name: string; position: number }>(
      'select id, name, position from stages where workspace_id = $1 and pipeline_id = $2 order by position',
      [actor.workspaceId, pipelines[0]?.id],
    );
    expect(stages.map((s) => s.name)).toEqual(['Lead', 'Qualified', 'Proposal', 'Won', 'Lost']);
    expect(stages.map((s) => s.position)).toEqual([0, 1, 2, 3, 4]);
    expect(stages.every((s) => isId('stage', s.id))).toBe(true);
  });

  it('makes the owner an OWNER member, storing the email lower-cased', async () => {
    const email = `Owner-${randomUUID()}@Example.com`;
    const { workspaceId, userId } = await createWorkspace(t.db, {
      name: 'W',
      owner: { email, name: 'Olga' },
    });
    expect(isId('workspace', workspaceId)).toBe(true);
    expect(isId('user', userId)).toBe(true);
    const rows = await t.query(
      'select u.email, u.name, m.role from users u join memberships m on m.user_id = u.id where m.workspace_id = $1',
      [workspaceId],
    );
    expect(rows).toEqual([{ email: email.toLowerCase(), name: 'Olga', role: 'OWNER' }]);
  });

  it('reuses the user of an existing email for a second workspace', async () => {
    const email = `twice-${randomUUID()}@example.com`;
    const first = await createWorkspace(t.db, { name: 'One', owner: { email, name: 'Tim' } });
    const second = await createWorkspace(t.db, {
      name: 'Two',
      owner: { email: email.toUpperCase(), name: 'Tim' },
    });
    expect(second.userId).toBe(first.userId);
    expect(second.workspaceId).not.toBe(first.workspaceId);
  });

  it('keeps the default rate limit of 120 unless one is given', async () => {
    const plain = await createWorkspace(t.db, {
      name: 'P',
      owner: { email: `p-${randomUUID()}@x.io`, name: 'P' },
    });
    const custom = await createWorkspace(t.db, {
      name: 'C',
      owner: { email: `c-${randomUUID()}@x.io`, name: 'C' },
      rateLimitPerMinute: 10,
    });
    const rows = await t.query<{ id: string; rate_limit_per_minute: number }>(
      'select id, rate_limit_per_minute from workspaces where id = any($1)',
      [[plain.workspaceId, custom.workspaceId]],
    );
    const limits = Object.fromEntries(rows.map((r) => [r.id, r.rate_limit_per_minute]));
    expect(limits).toEqual({ [plain.workspaceId]: 120, [custom.workspaceId]: 10 });
  });
});

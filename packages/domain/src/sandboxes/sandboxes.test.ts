import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxSends } from '../shared/sandbox-policy.ts';
import { expectDomainError, newWorkspace, openTestDb, type TestDb } from '../testing/fixtures.ts';
import { authenticateSession } from '../users/authenticate-session.ts';
import { createSession } from '../users/create-session.ts';
import { addMember, createWorkspace } from '../workspaces/create-workspace.ts';
import { createSandbox } from './create-sandbox.ts';
import { openWorkspace } from './open-workspace.ts';

let t: TestDb;

beforeAll(async () => {
  t = await openTestDb();
});
afterAll(() => t?.close());

const services = { baseUrl: 'http://crm.test', checkOutboundUrl: async () => {} };

describe('sandboxes', () => {
  it('open for a member of their workspace, one who joined later too, and for nobody else', async () => {
    const ws = await newWorkspace(t.db);
    const sandbox = await createSandbox(t.db, ws.actor, { name: 'Try-outs' }, services);
    // A member who joined after the sandbox was made.
    const late = await createWorkspace(t.db, {
      name: 'Elsewhere',
      owner: { email: `late-${randomUUID()}@example.com`, name: 'Late' },
    });
    await addMember(t.db, ws.actor.workspaceId, late.userId, 'MEMBER');
    const session = await createSession(t.db, late.userId, ws.actor.workspaceId);
    const opened = await openWorkspace(t.db, {
      token: session.token,
      userId: late.userId,
      workspaceId: sandbox.id,
    });
    const there = await authenticateSession(t.db, opened.token);
    expect(there?.actor).toMatchObject({ workspaceId: sandbox.id, role: 'MEMBER' });
    expect(there?.sandboxOf).toBe(ws.actor.workspaceId);
    // The session it left is over.
    expect(await authenticateSession(t.db, session.token)).toBeNull();
    // Back to the workspace.
    const back = await openWorkspace(t.db, {
      token: opened.token,
      userId: late.userId,
      workspaceId: ws.actor.workspaceId,
    });
    expect((await authenticateSession(t.db, back.token))?.actor.workspaceId).toBe(ws.actor.workspaceId);
    // Someone of another workspace opens neither.
    const stranger = await createSession(t.db, late.userId, late.workspaceId);
    const other = await newWorkspace(t.db);
    await expectDomainError(
      openWorkspace(t.db, {
        token: stranger.token,
        userId: late.userId,
        workspaceId: other.actor.workspaceId,
      }),
      'NOT_FOUND',
    );
  });

  it('send to the URLs they allow: the same scheme, host and port, under the path', () => {
    const policy = { allow: ['https://hooks.example.com/test', 'http://127.0.0.1:8080/'] };
    const cases: [string, boolean][] = [
      ['https://hooks.example.com/test', true],
      ['https://hooks.example.com/test/42?x=1', true],
      ['https://HOOKS.example.com:443/test/a', true],
      ['https://hooks.example.com/testing', false],
      ['https://hooks.example.com/', false],
      ['http://hooks.example.com/test', false],
      ['https://hooks.example.com.evil.test/test', false],
      ['https://user@hooks.example.com:444/test', false],
      ['http://127.0.0.1:8080/anything', true],
      ['http://127.0.0.1:8081/anything', false],
      ['not a url', false],
    ];
    for (const [url, sends] of cases) expect(sandboxSends(policy, url), url).toBe(sends);
    expect(sandboxSends(null, 'https://anywhere.example.com')).toBe(true);
    expect(sandboxSends({ allow: [] }, 'https://anywhere.example.com')).toBe(false);
  });
});

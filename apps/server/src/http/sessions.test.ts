import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppRouter } from '@crm/api';
import { createApiKey, setPassword } from '@crm/domain';
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../testing/test-app.ts';

let app: TestApp;
let webDir: string;
const PASSWORD = 'a long enough password';

beforeAll(async () => {
  webDir = await mkdtemp(join(tmpdir(), 'crm-web-'));
  await writeFile(join(webDir, 'index.html'), '<!doctype html><title>CRM</title><div id="root"></div>');
  app = await startTestApp({ env: { WEB_DIR: webDir } });
});
afterAll(async () => {
  await app?.stop();
  await rm(webDir, { recursive: true, force: true });
});

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
const readJson = async (res: Response): Promise<any> => res.json();

interface Browser {
  cookie: string;
  csrf: string;
  setCookie: string;
}

async function ownerEmail(userId: string) {
  const rows = await app.service.pool.query<{ email: string }>('select email from users where id = $1', [
    userId,
  ]);
  return rows.rows[0]!.email;
}

async function signIn(email: string, password = PASSWORD) {
  return fetch(`${app.url}/auth/sign-in`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
}

async function browserFor(email: string): Promise<Browser> {
  const res = await signIn(email);
  expect(res.status).toBe(200);
  const setCookie = res.headers.get('set-cookie') ?? '';
  const body = (await readJson(res)) as { data: { csrfToken: string } };
  return { cookie: setCookie.split(';')[0]!, csrf: body.data.csrfToken, setCookie };
}

function client(auth: { browser?: Browser; csrf?: string | null; key?: string; importing?: boolean }) {
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: `${app.url}/trpc`,
        headers: () => {
          const headers: Record<string, string> = {};
          if (auth.browser) headers.Cookie = auth.browser.cookie;
          const csrf = auth.csrf === undefined ? auth.browser?.csrf : auth.csrf;
          if (csrf) headers['X-CSRF-Token'] = csrf;
          if (auth.key) headers.Authorization = `Bearer ${auth.key}`;
          // What the web app's CSV import sends (apps/web/src/lib/trpc.ts).
          if (auth.importing) headers['X-Change-Source'] = 'import';
          return headers;
        },
      }),
    ],
  });
}

async function failure(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (error instanceof TRPCClientError) return error as TRPCClientError<AppRouter>;
    throw error;
  }
  throw new Error('expected the call to fail');
}

async function workspaceWithOwner() {
  const ws = await app.createWorkspace();
  const email = await ownerEmail(ws.userId);
  await setPassword(app.service.db, email, PASSWORD);
  return { ...ws, email };
}

describe('signing in to the web app', () => {
  it('sets an HTTP-only SameSite session cookie and returns the user, workspace and CSRF token', async () => {
    const ws = await workspaceWithOwner();
    const res = await signIn(ws.email);
    expect(res.status).toBe(200);
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^crm_session=[\w-]{43}; path=\/; /);
    expect(cookie.toLowerCase()).toContain('httponly');
    expect(cookie.toLowerCase()).toContain('samesite=lax');
    const body = await readJson(res);
    expect(body.data).toMatchObject({
      user: { id: ws.userId, email: ws.email, role: 'OWNER' },
      workspace: { id: ws.workspaceId },
      csrfToken: expect.stringMatching(/^[\w-]{43}$/),
    });
    const session = await fetch(`${app.url}/auth/session`, { headers: { Cookie: cookie.split(';')[0]! } });
    expect((await readJson(session)).data.csrfToken).toBe(body.data.csrfToken);
  });

  it('answers a wrong password with 401 and the REST error body, and bad input with 400 naming the field', async () => {
    const ws = await workspaceWithOwner();
    const wrong = await signIn(ws.email, 'not the password');
    expect(wrong.status).toBe(401);
    expect((await readJson(wrong)).error).toMatchObject({
      code: 'UNAUTHORIZED',
      message: 'Wrong email or password',
    });
    expect(wrong.headers.get('set-cookie')).toBeNull();
    const bad = await fetch(`${app.url}/auth/sign-in`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: ws.email, pasword: 'x' }),
    });
    expect(bad.status).toBe(400);
    const paths = (await readJson(bad)).error.details.map((d: { path: string }) => d.path);
    expect(paths).toEqual(expect.arrayContaining(['password', 'pasword']));
  });

  it('answers 400, before any authentication, for an email with NUL or a lone surrogate', async () => {
    for (const raw of [
      '{"email": "a@example.com\\u0000", "password": "a long enough password"}',
      '{"email": "a@example.com\\ud800", "password": "a long enough password"}',
      '{"email": "not an email", "password": "a long enough password"}',
    ]) {
      const res = await fetch(`${app.url}/auth/sign-in`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: raw,
      });
      expect(res.status, raw).toBe(400);
      expect((await readJson(res)).error.code).toBe('VALIDATION_FAILED');
    }
  });

  it('refuses a sign-in posted from another site', async () => {
    const ws = await workspaceWithOwner();
    // fetch() sets Origin itself; node:http sends the header a browser on another site would.
    const answer = await new Promise<{ status: number; cookie: unknown }>((resolve, reject) => {
      const req = request(`${app.url}/auth/sign-in`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: 'https://evil.example' },
      });
      req.on('response', (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, cookie: res.headers['set-cookie'] });
      });
      req.on('error', reject);
      req.end(JSON.stringify({ email: ws.email, password: PASSWORD }));
    });
    expect(answer).toEqual({ status: 403, cookie: undefined });
    expect((await signIn(ws.email)).status).toBe(200);
  });
});

describe('the session on /trpc', () => {
  it('works with the CSRF header and is refused without it or with a wrong one', async () => {
    const ws = await workspaceWithOwner();
    const browser = await browserFor(ws.email);
    const me = await client({ browser }).workspace.me.query({});
    expect(me.data).toMatchObject({ user: { id: ws.userId, role: 'OWNER' }, key: null });
    for (const csrf of [null, 'x'.repeat(43)]) {
      const refused = await failure(client({ browser, csrf }).workspace.me.query({}));
      expect(refused.data?.httpStatus).toBe(403);
      expect(refused.message).toContain('X-CSRF-Token');
      const write = await failure(
        client({ browser, csrf }).records.create.mutate({ folderId: ws.folderId, title: 'forged' }),
      );
      expect(write.data?.httpStatus).toBe(403);
    }
    const list = await client({ key: ws.apiKey }).records.list.query({ q: 'forged' });
    expect(list.data).toEqual([]);
  });

  it('keeps the Bearer path, which wins over a cookie', async () => {
    const ws = await workspaceWithOwner();
    const browser = await browserFor(ws.email);
    const me = await client({ browser, csrf: null, key: ws.apiKey }).workspace.me.query({});
    expect(me.data.key?.prefix).toBe(ws.apiKey.slice(0, 12));
  });

  it('ends with sign-out: the cookie is cleared and no longer accepted', async () => {
    const ws = await workspaceWithOwner();
    const browser = await browserFor(ws.email);
    const noCsrf = await fetch(`${app.url}/auth/sign-out`, {
      method: 'POST',
      headers: { Cookie: browser.cookie },
    });
    expect(noCsrf.status).toBe(403);
    const out = await fetch(`${app.url}/auth/sign-out`, {
      method: 'POST',
      headers: { Cookie: browser.cookie, 'X-CSRF-Token': browser.csrf },
    });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/^crm_session=; path=\/; expires=Thu, 01 Jan 1970/);
    const after = await failure(client({ browser }).workspace.me.query({}));
    expect(after.data?.httpStatus).toBe(401);
    expect((await fetch(`${app.url}/auth/session`, { headers: { Cookie: browser.cookie } })).status).toBe(
      401,
    );
  });
});

describe('the session on the jobs\u2019 file routes', () => {
  it('uploads with the CSRF header only, downloads with the cookie alone, and reaches no other REST route', async () => {
    const ws = await workspaceWithOwner();
    const browser = await browserFor(ws.email);
    const job = await client({ browser }).jobs.createImport.mutate({
      folderId: ws.folderId,
      format: 'csv',
      mapping: { Name: 'title', Email: 'email' },
    });
    const upload = (headers: Record<string, string>) =>
      fetch(`${app.url}/api/v1/jobs/${job.data.id}/file`, {
        method: 'PUT',
        headers: { 'Content-Type': 'text/csv', Cookie: browser.cookie, ...headers },
        body: 'Name,Email\nAda,ada@example.com\n',
      });
    for (const csrf of [{}, { 'X-CSRF-Token': 'x'.repeat(43) }] as Record<string, string>[]) {
      const refused = await upload(csrf);
      expect(refused.status).toBe(403);
      expect((await readJson(refused)).error.message).toContain('X-CSRF-Token');
    }
    const still = await client({ key: ws.apiKey }).jobs.get.query({ id: job.data.id });
    expect(still.data.status).toBe('AWAITING_FILE');
    const put = await upload({ 'X-CSRF-Token': browser.csrf });
    expect(put.status).toBe(202);
    expect((await readJson(put)).data).toMatchObject({ status: 'QUEUED', progress: { total: 1 } });

    const results = await fetch(`${app.url}/api/v1/jobs/${job.data.id}/results`, {
      headers: { Cookie: browser.cookie },
    });
    expect(results.status).toBe(200);
    expect(results.headers.get('content-type')).toContain('application/x-ndjson');
    await results.arrayBuffer();
    // The cookie opens the file routes only: the rest of the REST API wants a key.
    const other = await fetch(`${app.url}/api/v1/jobs/${job.data.id}`, {
      headers: { Cookie: browser.cookie },
    });
    expect(other.status).toBe(401);
  });
});

describe('changing a password', () => {
  const sessionOf = (browser: Browser) =>
    fetch(`${app.url}/auth/session`, { headers: { Cookie: browser.cookie } }).then((r) => r.status);
  const change = (browser: Browser, body: unknown, csrf: string | null = browser.csrf) =>
    fetch(`${app.url}/auth/change-password`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Cookie: browser.cookie,
        ...(csrf ? { 'X-CSRF-Token': csrf } : {}),
      },
      body: JSON.stringify(body),
    });

  it('keeps the session that changed it and ends the user’s other sessions', async () => {
    const ws = await workspaceWithOwner();
    const laptop = await browserFor(ws.email);
    const phone = await browserFor(ws.email);
    const newPassword = 'a new and long password';
    expect((await change(laptop, { currentPassword: PASSWORD, newPassword }, null)).status).toBe(403);
    const wrong = await change(laptop, { currentPassword: 'not the password', newPassword });
    expect(wrong.status).toBe(401);
    expect(await sessionOf(phone)).toBe(200);

    const changed = await change(laptop, { currentPassword: PASSWORD, newPassword });
    expect(changed.status).toBe(200);
    expect((await readJson(changed)).data).toEqual({ passwordChanged: true, sessionsEnded: 1 });
    expect(await sessionOf(laptop)).toBe(200);
    expect(await sessionOf(phone)).toBe(401);
    const ended = await failure(client({ browser: phone }).workspace.me.query({}));
    expect(ended.data?.httpStatus).toBe(401);
    expect((await signIn(ws.email)).status).toBe(401);
    expect((await signIn(ws.email, newPassword)).status).toBe(200);
  });

  it('ends every session when the password is set from the CLI (a reset)', async () => {
    const ws = await workspaceWithOwner();
    const one = await browserFor(ws.email);
    const two = await browserFor(ws.email);
    await setPassword(app.service.db, ws.email, 'a reset password here');
    expect(await sessionOf(one)).toBe(401);
    expect(await sessionOf(two)).toBe(401);
    expect((await signIn(ws.email, 'a reset password here')).status).toBe(200);
  });
});

describe('API keys and roles', () => {
  it('lets an owner create a key whose secret is shown once and works on REST, list it and revoke it', async () => {
    const ws = await workspaceWithOwner();
    const trpc = client({ browser: await browserFor(ws.email) });
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const created = await trpc.keys.create.mutate({ name: 'Zapier', scopes: ['read'], expiresAt });
    expect(created.data).toMatchObject({ name: 'Zapier', scopes: ['read'], expiresAt, revokedAt: null });
    const rest = await app.api(created.data.secret, 'GET', '/api/v1/me');
    expect(rest.body.data.key.id).toBe(created.data.id);
    expect(
      (await app.api(created.data.secret, 'POST', '/api/v1/records', { folderId: ws.folderId, title: 'x' }))
        .status,
    ).toBe(403);
    const listed = await trpc.keys.list.query();
    expect(listed.data.map((k) => k.id)).toContain(created.data.id);
    expect(JSON.stringify(listed)).not.toContain(created.data.secret);
    expect(listed.data.find((k) => k.id === created.data.id)?.lastUsedAt).not.toBeNull();
    await trpc.keys.revoke.mutate({ id: created.data.id });
    expect((await app.api(created.data.secret, 'GET', '/api/v1/me')).status).toBe(401);
    const past = await failure(trpc.keys.create.mutate({ name: 'old', expiresAt: '2020-01-01T00:00:00Z' }));
    expect(past.data?.httpStatus).toBe(400);
  });

  it('refuses a key limited to folders that asks for a scope reaching every folder, naming scopes', async () => {
    const ws = await workspaceWithOwner();
    const trpc = client({ browser: await browserFor(ws.email) });
    for (const scope of ['webhooks:write', 'workflows:read', 'workflows:write'] as const) {
      const refused = await failure(
        trpc.keys.create.mutate({
          name: 'one folder',
          scopes: ['records:read', scope],
          folderIds: [ws.folderId],
        }),
      );
      expect(refused.data?.httpStatus).toBe(400);
      expect(refused.data?.error).toMatchObject({
        code: 'VALIDATION_FAILED',
        details: [
          {
            path: 'scopes',
            message: expect.stringContaining(`${scope} cannot be held by a key limited to folders`),
          },
        ],
      });
    }
    // With `write` it is made, without them.
    const made = await trpc.keys.create.mutate({ name: 'one folder', folderIds: [ws.folderId] });
    const me = await app.api(made.data.secret, 'GET', '/api/v1/me');
    expect(me.body.data.scopes).not.toContain('webhooks:write');
    expect(me.body.data.scopes).toContain('records:write');
  });

  it('refuses key management with an API key', async () => {
    const ws = await workspaceWithOwner();
    const refused = await failure(client({ key: ws.apiKey }).keys.create.mutate({ name: 'more' }));
    expect(refused.data?.httpStatus).toBe(403);
  });

  it('lets an invited MEMBER work with records but not manage keys, webhooks or invitations', async () => {
    const ws = await workspaceWithOwner();
    const owner = client({ browser: await browserFor(ws.email) });
    const memberEmail = `member-${Date.now()}@example.com`;
    const invitation = await owner.invitations.create.mutate({ email: memberEmail, role: 'MEMBER' });
    const accepted = await fetch(`${app.url}/auth/accept-invitation`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token: invitation.data.token, name: 'Mia', password: PASSWORD }),
    });
    expect(accepted.status).toBe(200);
    expect((await readJson(accepted)).data.user).toMatchObject({ name: 'Mia', role: 'MEMBER' });
    const member = client({ browser: await browserFor(memberEmail) });
    const record = await member.records.create.mutate({ folderId: ws.folderId, title: 'By a member' });
    expect(record.data.title).toBe('By a member');
    for (const call of [
      () => member.keys.list.query(),
      () => member.webhooks.list.query({}),
      () => member.webhooks.create.mutate({ url: 'https://example.com/hook', events: ['*'] }),
      () => member.invitations.create.mutate({ email: 'x@example.com', role: 'MEMBER' }),
      () => member.workflows.list.query({}),
      () =>
        member.workflows.create.mutate({
          name: 'Not mine to make',
          trigger: { type: 'INCOMING_WEBHOOK' },
          actions: [{ type: 'ADD_COMMENT', text: 'x' }],
        }),
    ]) {
      const refused = await failure(call());
      expect(refused.data?.httpStatus).toBe(403);
      expect(refused.message).toContain('owner or admin');
    }
    // A key never gets more than its maker has: a member's key reads records, not webhooks.
    const { secret } = await createApiKey(app.service.db, {
      workspaceId: ws.workspaceId,
      userId: (await member.workspace.me.query({})).data.user.id,
      name: 'member key',
    });
    expect((await app.api(secret, 'GET', `/api/v1/records?folderId=${ws.folderId}`)).status).toBe(200);
    const hooks = await app.api(secret, 'GET', '/api/v1/webhooks');
    expect(hooks.status).toBe(403);
    expect(hooks.body.error.details).toEqual([{ path: 'scope', message: 'needs webhooks:read' }]);
    const invitations = await owner.invitations.list.query();
    expect(invitations.data[0]).toMatchObject({ email: memberEmail, status: 'ACCEPTED' });
  });
});

describe('the provenance of changes over /trpc', () => {
  const historyOf = async (ws: { apiKey: string }, recordId: string) =>
    (await app.api(ws.apiKey, 'GET', `/api/v1/records/${recordId}/history`)).body.data;
  const eventsOf = async (ws: { workspaceId: string }, recordId: string) =>
    (
      await app.service.pool.query<{ type: string; payload: Record<string, unknown> }>(
        `select type, payload from events where workspace_id = $1 and payload->>'recordId' = $2 order by occurred_at, id`,
        [ws.workspaceId, recordId],
      )
    ).rows;

  it('names the key and the source trpc on the event and the history entry of a change made with a key', async () => {
    const ws = await workspaceWithOwner();
    const trpc = client({ key: ws.apiKey });
    const created = await trpc.records.create.mutate({ folderId: ws.folderId, title: 'Ada' });
    await trpc.records.update.mutate({ id: created.data.id, title: 'Ada Lovelace' });
    const keyId = (await trpc.workspace.me.query({})).data.key?.id;
    const provenance = { actor: { type: 'apiKey', id: keyId, name: 'test' }, source: 'trpc' };
    const events = await eventsOf(ws, created.data.id);
    expect(events.map((e) => e.type)).toEqual(['record.created', 'record.updated']);
    for (const event of events) {
      expect(event.payload).toMatchObject({ ...provenance, requestId: expect.any(String) });
    }
    expect(await historyOf(ws, created.data.id)).toEqual([
      expect.objectContaining({ field: 'title', from: 'Ada', to: 'Ada Lovelace', ...provenance }),
    ]);
  });

  it('names the signed-in user as an import on the event and the history entry of the CSV import’s writes', async () => {
    const ws = await workspaceWithOwner();
    const browser = await browserFor(ws.email);
    const user = (await client({ browser }).workspace.me.query({})).data.user;
    const email = `grace-${Date.now()}@example.com`;
    // Made in the web app, then imported again by email: an upsert that changes the title.
    const made = await client({ browser }).records.create.mutate({
      folderId: ws.folderId,
      title: 'Grace',
      email,
    });
    const imported = await client({ browser, importing: true }).records.batchCreate.mutate({
      items: [{ folderId: ws.folderId, title: 'Grace Hopper', email }],
      upsert: 'email',
    });
    expect(imported.data[0]).toMatchObject({ status: 200, data: { id: made.data.id } });
    const importedBy = { actor: { type: 'import', id: user.id, name: user.name }, source: 'import' };
    const events = await eventsOf(ws, made.data.id);
    expect(events.map((e) => [e.type, e.payload.source])).toEqual([
      ['record.created', 'web'],
      ['record.updated', 'import'],
    ]);
    expect(events[1]!.payload).toMatchObject({ ...importedBy, requestId: expect.any(String) });
    expect(await historyOf(ws, made.data.id)).toEqual([
      expect.objectContaining({ field: 'title', from: 'Grace', to: 'Grace Hopper', ...importedBy }),
    ]);
    // The header counts only for a signed-in user: a key's change stays the key's.
    const byKey = await client({ key: ws.apiKey, importing: true }).records.update.mutate({
      id: made.data.id,
      title: 'Grace B. Hopper',
    });
    expect(byKey.data.title).toBe('Grace B. Hopper');
    expect((await historyOf(ws, made.data.id))[0]).toMatchObject({
      actor: { type: 'apiKey' },
      source: 'trpc',
    });
  });
});

describe('the web app files', () => {
  it('serves the app for page navigations and leaves API 404s as JSON', async () => {
    for (const path of ['/', '/settings/keys', '/records/rec_x']) {
      const res = await fetch(`${app.url}${path}`, { headers: { Accept: 'text/html' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(await res.text()).toContain('<div id="root">');
    }
    const missing = await fetch(`${app.url}/api/v1/nothing`, { headers: { Accept: 'application/json' } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toContain('application/json');
    const unknown = await fetch(`${app.url}/no-such-file.js`);
    expect(unknown.status).toBe(404);
    expect((await readJson(unknown)).error.code).toBe('NOT_FOUND');
    const traversal = await fetch(`${app.url}/..%2f..%2fpackage.json`);
    expect(traversal.status).toBe(404);
  });
});

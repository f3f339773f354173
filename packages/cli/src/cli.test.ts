import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { closePool, createDatabase, createPool, type Database } from '@crm/db';
import { createTestDatabase, type TestDatabase } from '@crm/db/testing';
import {
  authenticateApiKey,
  authenticateSession,
  configureSecretKeys,
  createWebhook,
  createWorkflow,
  createWorkflowInput,
  generateSecretKey,
  openSecret,
  secretKeyId,
  signIn,
} from '@crm/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
/** The client address sign-ins in these tests come from (the sign-in throttles key on it). */
const here = { address: '192.0.2.20' };
const bin = join(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'crm.mjs');

let database: TestDatabase;
let pool: ReturnType<typeof createPool>;
let db: Database;

beforeAll(async () => {
  database = await createTestDatabase();
  pool = createPool({ connectionString: database.connectionString, max: 2 });
  db = createDatabase(pool);
});
afterAll(async () => {
  await closePool(pool);
  await database?.drop();
});

async function crm(...args: string[]) {
  return crmWith({}, ...args);
}

async function crmWith(env: Record<string, string>, ...args: string[]) {
  const { stdout } = await run(process.execPath, [bin, ...args], {
    env: { ...process.env, DATABASE_URL: database.connectionString, ...env },
  });
  return JSON.parse(stdout);
}

describe('the CLI', () => {
  it('bootstraps a workspace, its owner and a working API key as JSON', async () => {
    const out = await crm('bootstrap', '--workspace', 'Acme', '--email', 'boss@acme.test', '--name', 'Boss');
    expect(Object.keys(out).sort()).toEqual(['apiKey', 'userId', 'workspaceId']);
    expect(out.workspaceId).toMatch(/^ws_/);
    expect(out.userId).toMatch(/^usr_/);
    expect(out.apiKey).toMatch(/^crm_[0-9A-Za-z]{43}$/);
    const key = await authenticateApiKey(db, out.apiKey);
    expect(key).toMatchObject({ workspaceId: out.workspaceId, userId: out.userId, role: 'OWNER' });
  });

  it('lets the bootstrap owner sign in with the password given, and sets passwords later', async () => {
    const out = await crm('bootstrap', '--email', 'pw@acme.test', '--password', 'owner password 1');
    expect(Object.keys(out).sort()).toEqual(['apiKey', 'userId', 'workspaceId']);
    const session = await signIn(db, { email: 'pw@acme.test', password: 'owner password 1' }, here);
    expect((await authenticateSession(db, session.token))?.actor).toMatchObject({
      userId: out.userId,
      workspaceId: out.workspaceId,
      role: 'OWNER',
    });
    const changed = await crm(
      'users',
      'set-password',
      '--email',
      'PW@acme.test',
      '--password',
      'another password 2',
    );
    // Setting a password ends every session of the user.
    expect(changed).toEqual({
      userId: out.userId,
      email: 'pw@acme.test',
      passwordSet: true,
      sessionsEnded: 1,
    });
    expect(await authenticateSession(db, session.token)).toBeNull();
    await expect(signIn(db, { email: 'pw@acme.test', password: 'owner password 1' }, here)).rejects.toThrow(
      'Wrong email or password',
    );
    await signIn(db, { email: 'pw@acme.test', password: 'another password 2' }, here);
    await expect(crm('bootstrap', '--email', 'short@acme.test', '--password', 'short')).rejects.toThrow(
      /--password: must be at least 10 characters/,
    );
  });

  it('creates, lists and revokes keys', async () => {
    const { workspaceId } = await crm('bootstrap');
    const created = await crm(
      'keys',
      'create',
      '--workspace',
      workspaceId,
      '--name',
      'reporting',
      '--scopes',
      'read',
    );
    expect(created).toMatchObject({ name: 'reporting', scopes: ['read'], revokedAt: null });
    const verified = await authenticateApiKey(db, created.apiKey);
    expect([...verified.scopes].every((scope) => scope.endsWith(':read'))).toBe(true);
    expect(verified.scopes.has('records:read')).toBe(true);
    const list = await crm('keys', 'list', '--workspace', workspaceId);
    expect(list.map((k: { id: string }) => k.id)).toContain(created.id);
    expect(JSON.stringify(list)).not.toContain(created.apiKey);
    const revoked = await crm('keys', 'revoke', created.id, '--workspace', workspaceId);
    expect(revoked.revokedAt).not.toBeNull();
    await expect(authenticateApiKey(db, created.apiKey)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('changes a workspace rate limit, and refuses an unknown workspace or a limit that is not a count', async () => {
    const { workspaceId, apiKey } = await crm('bootstrap');
    expect(await crm('workspaces', 'set-rate-limit', workspaceId, '--rate-limit', '600')).toEqual({
      workspaceId,
      rateLimitPerMinute: 600,
    });
    expect((await authenticateApiKey(db, apiKey)).rateLimitPerMinute).toBe(600);
    await expect(
      crm('workspaces', 'set-rate-limit', 'ws_unknown', '--rate-limit', '5'),
    ).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('Workspace ws_unknown not found'),
    });
    await expect(
      crm('workspaces', 'set-rate-limit', workspaceId, '--rate-limit', '1.5'),
    ).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('--rate-limit'),
    });
    await expect(crm('workspaces', 'set-rate-limit', workspaceId)).rejects.toMatchObject({ code: 1 });
  });

  it('reads the options after a leading -- (what pnpm cli -- … passes on)', async () => {
    const out = await crm('--', 'bootstrap', '--email', 'dashes@acme.test', '--workspace', 'Dashes');
    const rows = await pool.query<{ email: string; name: string }>(
      `select u.email, w.name from users u join workspaces w on w.id = $1 where u.id = $2`,
      [out.workspaceId, out.userId],
    );
    expect(rows.rows).toEqual([{ email: 'dashes@acme.test', name: 'Dashes' }]);
  });

  it('prints its usage for --help and its version for --version, exiting 0', async () => {
    const help = await run(process.execPath, [bin, '--help']);
    expect(help.stdout).toContain('Usage: crm <command>');
    expect(help.stdout).toContain('workspaces set-rate-limit');
    const version = await run(process.execPath, [bin, '--version']);
    const manifest = JSON.parse(await readFile(join(dirname(bin), '..', 'package.json'), 'utf8'));
    expect(version.stdout.trim()).toBe(manifest.version);
    await expect(run(process.execPath, [bin])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('Usage: crm <command>'),
    });
  });

  it('refuses an unknown workspace in every command that names one', async () => {
    const unknown = { code: 1, stderr: expect.stringContaining('Workspace ws_unknown not found') };
    await expect(crm('keys', 'list', '--workspace', 'ws_unknown')).rejects.toMatchObject(unknown);
    await expect(crm('keys', 'create', '--workspace', 'ws_unknown')).rejects.toMatchObject(unknown);
    await expect(
      crm('keys', 'revoke', 'key_00000000000000000000000000', '--workspace', 'ws_unknown'),
    ).rejects.toMatchObject(unknown);
    await expect(
      crm('workspaces', 'set-rate-limit', 'ws_unknown', '--rate-limit', '5'),
    ).rejects.toMatchObject(unknown);
  });

  it('imports a file through a job, exiting 2 for its refused rows, and exports the folder to a file', async () => {
    const { workspaceId } = await crm('bootstrap', '--workspace', 'Importers', '--email', 'imp@acme.test');
    const folder = await pool.query<{ id: string }>('select id from folders where workspace_id = $1', [
      workspaceId,
    ]);
    const folderId = folder.rows[0]!.id;
    const dir = await mkdtemp(join(tmpdir(), 'crm-cli-jobs-'));
    try {
      const lines = ['Name;E-mail;Company'];
      for (let i = 1; i <= 30; i++)
        lines.push(`Person ${i};${i % 10 === 0 ? 'nope' : `p${i}@acme.test`};Co ${i}`);
      await writeFile(join(dir, 'people.csv'), lines.join('\n'));
      const args = [
        'import',
        '--workspace',
        workspaceId,
        '--folder',
        folderId,
        '--file',
        join(dir, 'people.csv'),
      ];
      const refused = await crm(...args, '--map', 'Name=title,E-mail=email,Company=data.company').catch(
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
      expect(refused).toMatchObject({ code: 2 });
      const ended = JSON.parse((refused as { stdout: string }).stdout);
      expect(ended).toMatchObject({
        status: 'SUCCEEDED',
        progress: { rowsRead: 30, created: 27, refused: 3, total: 30 },
      });
      // Mapped to a column the file lacks: refused before anything is written.
      await expect(crm(...args, '--map', 'Name=title,Phone=phone')).rejects.toMatchObject({
        code: 1,
        stderr: expect.stringContaining('Phone'),
      });
      const out = join(dir, 'out.csv');
      const exported = await crm('export', '--workspace', workspaceId, '--folder', folderId, '--out', out);
      expect(exported).toMatchObject({ status: 'SUCCEEDED', writtenTo: out });
      const rows = (await readFile(out, 'utf8')).trim().split('\n');
      expect(rows).toHaveLength(28);
      expect(rows.slice(1).filter((row) => row.includes('@acme.test'))).toHaveLength(27);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('fails with a message and a non-zero exit for a bad command', async () => {
    await expect(crm('keys', 'explode')).rejects.toMatchObject({ code: 1 });
    await expect(crm('keys', 'list')).rejects.toMatchObject({ code: 1 });
  });

  it('re-encrypts every stored secret under a new SECRETS_KEY, so the previous key can be dropped', async () => {
    const testKey = process.env.SECRETS_KEY!;
    const { workspaceId, userId } = await crm('bootstrap', '--email', 'keys@acme.test');
    const actor = {
      workspaceId,
      userId,
      userName: 'Owner',
      role: 'OWNER',
      scopes: ['read', 'write'],
    } as never;
    const hook = await createWebhook(
      db,
      actor,
      { url: 'https://hooks.example.com/x', events: ['*'], headers: { 'X-Token': 'token-0123456789' } },
      { checkOutboundUrl: async () => {} },
    );
    const workflow = await createWorkflow(
      db,
      actor,
      createWorkflowInput.parse({
        name: 'Signed',
        trigger: { type: 'INCOMING_WEBHOOK' },
        actions: [{ type: 'CONDITION', left: 1, operator: 'EXISTS' }],
        requireSignature: true,
      }),
      { baseUrl: '', checkOutboundUrl: async () => {} },
    );
    // A row from before encryption is sealed by the same command.
    await pool.query(
      `update webhooks set previous_secret = 'whsec_plain', previous_secret_expires_at = now() where id = $1`,
      [hook.id],
    );

    const newKey = generateSecretKey();
    const out = await crmWith({ SECRETS_KEY: newKey, SECRETS_KEY_PREVIOUS: testKey }, 'secrets', 'reencrypt');
    expect(out.keyId).toBe(secretKeyId(newKey));
    expect(out.reencrypted.webhooks).toBeGreaterThanOrEqual(1);
    expect(out.reencrypted.workflows).toBeGreaterThanOrEqual(1);

    configureSecretKeys({ current: newKey });
    try {
      const [row] = (
        await pool.query('select secret, previous_secret, headers from webhooks where id = $1', [hook.id])
      ).rows;
      for (const value of [row.secret, row.previous_secret, row.headers['X-Token']]) {
        expect(value.startsWith(`enc:v1:${out.keyId}:`)).toBe(true);
      }
      expect(openSecret(row.secret)).toBe(hook.secret);
      expect(openSecret(row.previous_secret)).toBe('whsec_plain');
      expect(openSecret(row.headers['X-Token'])).toBe('token-0123456789');
      const [stored] = (await pool.query('select secret from workflows where id = $1', [workflow.id])).rows;
      expect(openSecret(stored.secret)).toBe(workflow.secret);
      // Nothing is left under the old key: a second run changes nothing.
      expect((await crmWith({ SECRETS_KEY: newKey }, 'secrets', 'reencrypt')).reencrypted).toEqual({
        webhooks: 0,
        workflows: 0,
        idempotencyKeys: 0,
      });
    } finally {
      // Back to the test key for whatever comes after (the rows keep the new one).
      configureSecretKeys({ current: testKey, previous: newKey });
    }
  });

  it('refuses to re-encrypt without a key, and never prints the parameters of a failed statement', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'crm-cli-'));
    try {
      await expect(
        crmWith({ SECRETS_KEY: '', DATA_DIR: empty }, 'secrets', 'reencrypt'),
      ).rejects.toMatchObject({
        code: 1,
        stderr: expect.stringContaining('No secrets key'),
      });
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
    // The database refuses the new key's row: the message names the statement, not its values.
    const { workspaceId } = await crm('bootstrap', '--email', 'refused@acme.test');
    await pool.query('alter table api_keys add constraint refuse_new check (false) not valid');
    try {
      const failed = await crm('keys', 'create', '--workspace', workspaceId, '--name', 'canary-name').catch(
        (error: { code: number; stderr: string }) => error,
      );
      expect(failed).toMatchObject({ code: 1 });
      expect(failed.stderr).toMatch(/Failed query: insert into "api_keys"/);
      expect(failed.stderr).not.toContain('params');
      expect(failed.stderr).not.toContain('canary-name');
      expect(failed.stderr).not.toContain('crm_');
    } finally {
      await pool.query('alter table api_keys drop constraint refuse_new');
    }
  });
});

import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { closePool, createDatabase, createPool, type Database } from '@crm/db';
import { createTestDatabase, type TestDatabase } from '@crm/db/testing';
import { authenticateApiKey, authenticateSession, signIn } from '@crm/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
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
  const { stdout } = await run(process.execPath, [bin, ...args], {
    env: { ...process.env, DATABASE_URL: database.connectionString },
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
    const session = await signIn(db, { email: 'pw@acme.test', password: 'owner password 1' });
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
    expect(changed).toEqual({ userId: out.userId, email: 'pw@acme.test', passwordSet: true });
    await expect(signIn(db, { email: 'pw@acme.test', password: 'owner password 1' })).rejects.toThrow(
      'Wrong email or password',
    );
    await signIn(db, { email: 'pw@acme.test', password: 'another password 2' });
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
    expect((await authenticateApiKey(db, created.apiKey)).scopes).toEqual(['read']);
    const list = await crm('keys', 'list', '--workspace', workspaceId);
    expect(list.map((k: { id: string }) => k.id)).toContain(created.id);
    expect(JSON.stringify(list)).not.toContain(created.apiKey);
    const revoked = await crm('keys', 'revoke', created.id, '--workspace', workspaceId);
    expect(revoked.revokedAt).not.toBeNull();
    await expect(authenticateApiKey(db, created.apiKey)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('fails with a message and a non-zero exit for a bad command', async () => {
    await expect(crm('keys', 'explode')).rejects.toMatchObject({ code: 1 });
    await expect(crm('keys', 'list')).rejects.toMatchObject({ code: 1 });
  });
});

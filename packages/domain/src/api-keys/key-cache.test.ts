import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  expectDomainError,
  newWorkspace,
  openTestDb,
  type TestDb,
  type TestWorkspace,
} from '../testing/fixtures.ts';
import { AUTH_CHANNEL, authChangeFromPayload, authChangePayload, changeAuth } from './auth-changes.ts';
import { createApiKey, revokeApiKey } from './index.ts';
import { ApiKeyCache } from './key-cache.ts';

let t: TestDb;
const caches: ApiKeyCache[] = [];

beforeAll(async () => {
  t = await openTestDb();
});
afterEach(() => {
  for (const cache of caches.splice(0)) cache.close();
});
afterAll(() => t?.close());

/** A cache as the server runs it while its LISTEN is in effect, with a clock the test moves. */
function listeningCache(options: { ttlMs?: number; maxEntries?: number } = {}) {
  const clock = { now: Date.now() };
  const cache = new ApiKeyCache(t.db, { ...options, now: () => clock.now });
  cache.setListening(true);
  caches.push(cache);
  return { cache, clock };
}

const newKey = (ws: TestWorkspace, expiresAt?: string) =>
  createApiKey(t.db, {
    workspaceId: ws.actor.workspaceId,
    userId: ws.actor.userId,
    name: 'n8n',
    ...(expiresAt ? { expiresAt } : {}),
  });

/** Revokes behind the caches' back: an UPDATE that notifies no one. */
const revokeSilently = (id: string) => t.query('update api_keys set revoked_at = now() where id = $1', [id]);
const lastUsedAt = async (id: string) =>
  (await t.query<{ last_used_at: Date | null }>('select last_used_at from api_keys where id = $1', [id]))[0]!
    .last_used_at;

describe('ApiKeyCache', () => {
  it('answers a kept key from memory, so a change nobody announced goes unseen until it is', async () => {
    const ws = await newWorkspace(t.db);
    const { key, secret } = await newKey(ws);
    const { cache } = listeningCache();
    expect((await cache.authenticate(secret)).keyId).toBe(key.id);
    expect(cache.size).toBe(1);
    await revokeSilently(key.id);
    // Still trusted: nothing told this cache.
    expect((await cache.authenticate(secret)).keyId).toBe(key.id);
    cache.apply(authChangeFromPayload(`key:${key.id}`));
    await expectDomainError(cache.authenticate(secret), 'UNAUTHORIZED');
    expect(cache.size).toBe(0);
  });

  it('keeps nothing while not listening: every request sees the stored key', async () => {
    const ws = await newWorkspace(t.db);
    const { key, secret } = await newKey(ws);
    const cache = new ApiKeyCache(t.db);
    caches.push(cache);
    await cache.authenticate(secret);
    expect(cache.size).toBe(0);
    await revokeSilently(key.id);
    const error = await expectDomainError(cache.authenticate(secret), 'UNAUTHORIZED');
    expect(error.message).toBe('This API key has been revoked');
  });

  it('forgets every key when listening stops, and keeps none until it starts again', async () => {
    const ws = await newWorkspace(t.db);
    const { key, secret } = await newKey(ws);
    const { cache } = listeningCache();
    await cache.authenticate(secret);
    cache.setListening(false);
    expect(cache.size).toBe(0);
    await revokeSilently(key.id);
    await expectDomainError(cache.authenticate(secret), 'UNAUTHORIZED');
  });

  it('refuses a key revoked by this process from the next request on, before any notification', async () => {
    const ws = await newWorkspace(t.db);
    const { key, secret } = await newKey(ws);
    const { cache } = listeningCache();
    await cache.authenticate(secret);
    await revokeApiKey(t.db, ws.actor, key.id);
    const error = await expectDomainError(cache.authenticate(secret), 'UNAUTHORIZED');
    expect(error.message).toBe('This API key has been revoked');
  });

  it('drops only what a change touches: one key, one user or one workspace', async () => {
    const one = await newWorkspace(t.db);
    const two = await newWorkspace(t.db);
    const a = await newKey(one);
    const b = await newKey(one);
    const c = await newKey(two);
    const { cache } = listeningCache();
    for (const k of [a, b, c]) await cache.authenticate(k.secret);
    expect(cache.size).toBe(3);
    cache.apply({ keyId: a.key.id });
    expect(cache.size).toBe(2);
    cache.apply({ workspaceId: two.actor.workspaceId });
    expect(cache.size).toBe(1);
    cache.apply({ userId: one.actor.userId });
    expect(cache.size).toBe(0);
    for (const k of [a, b, c]) await cache.authenticate(k.secret);
    cache.apply('all');
    expect(cache.size).toBe(0);
  });

  it('does not keep a lookup that overlapped a change: its row may predate the change', async () => {
    const ws = await newWorkspace(t.db);
    const { key, secret } = await newKey(ws);
    const { cache } = listeningCache();
    const during = cache.authenticate(secret);
    cache.apply({ workspaceId: ws.actor.workspaceId });
    expect((await during).keyId).toBe(key.id);
    expect(cache.size).toBe(0);
  });

  it('checks expiry on every request, from memory', async () => {
    const ws = await newWorkspace(t.db);
    const { secret } = await newKey(ws, new Date(Date.now() + 60_000).toISOString());
    const { cache, clock } = listeningCache({ ttlMs: 3_600_000 });
    await cache.authenticate(secret);
    clock.now += 59_000;
    await cache.authenticate(secret);
    clock.now += 1_000;
    const error = await expectDomainError(cache.authenticate(secret), 'UNAUTHORIZED');
    expect(error.message).toBe('This API key has expired');
    expect(cache.size).toBe(0);
  });

  it('looks a key up again once it has been kept for ttlMs', async () => {
    const ws = await newWorkspace(t.db);
    const { key, secret } = await newKey(ws);
    const { cache, clock } = listeningCache({ ttlMs: 10_000 });
    await cache.authenticate(secret);
    await revokeSilently(key.id);
    clock.now += 9_999;
    await cache.authenticate(secret);
    clock.now += 1;
    await expectDomainError(cache.authenticate(secret), 'UNAUTHORIZED');
  });

  it('makes room by dropping the key looked up longest ago', async () => {
    const ws = await newWorkspace(t.db);
    const keys = [await newKey(ws), await newKey(ws), await newKey(ws)];
    const { cache } = listeningCache({ maxEntries: 2 });
    for (const k of keys) await cache.authenticate(k.secret);
    expect(cache.size).toBe(2);
    await revokeSilently(keys[0]!.key.id);
    await revokeSilently(keys[2]!.key.id);
    await expectDomainError(cache.authenticate(keys[0]!.secret), 'UNAUTHORIZED');
    // The newest is still kept, so the silent revocation goes unseen.
    expect((await cache.authenticate(keys[2]!.secret)).keyId).toBe(keys[2]!.key.id);
  });

  it('refuses a missing or unknown secret and keeps nothing of it', async () => {
    const { cache } = listeningCache();
    await expectDomainError(cache.authenticate(undefined), 'UNAUTHORIZED');
    await expectDomainError(cache.authenticate('crm_nope'), 'UNAUTHORIZED');
    expect(cache.size).toBe(0);
  });

  it('writes a first use at once, and later uses at most once a minute, in one statement per flush', async () => {
    const ws = await newWorkspace(t.db);
    const a = await newKey(ws);
    const b = await newKey(ws);
    const { cache, clock } = listeningCache({ ttlMs: 3_600_000 });
    await cache.authenticate(a.secret);
    const first = await lastUsedAt(a.key.id);
    expect(first).toBeInstanceOf(Date);
    await cache.authenticate(b.secret);
    expect(await cache.flushUses()).toBe(0);

    clock.now += 30_000;
    await cache.authenticate(a.secret);
    expect(await cache.flushUses()).toBe(0);

    clock.now += 31_000;
    for (let i = 0; i < 5; i++) {
      await cache.authenticate(a.secret);
      await cache.authenticate(b.secret);
    }
    expect((await lastUsedAt(a.key.id))?.getTime()).toBe(first?.getTime());
    expect(await cache.flushUses()).toBe(2);
    expect((await lastUsedAt(a.key.id))?.getTime()).toBe(clock.now);
    expect((await lastUsedAt(b.key.id))?.getTime()).toBe(clock.now);
    expect(await cache.flushUses()).toBe(0);
  });

  it('never moves lastUsedAt back in time', async () => {
    const ws = await newWorkspace(t.db);
    const { key, secret } = await newKey(ws);
    const { cache, clock } = listeningCache();
    await cache.authenticate(secret);
    const later = new Date(Date.now() + 3_600_000);
    await t.query('update api_keys set last_used_at = $2 where id = $1', [key.id, later]);
    clock.now += 61_000;
    await cache.authenticate(secret);
    await cache.flushUses();
    expect((await lastUsedAt(key.id))?.getTime()).toBe(later.getTime());
  });
});

describe('changeAuth', () => {
  it('notifies the auth channel when the change commits, and not when it rolls back', async () => {
    const client = await t.db.$client.connect();
    const heard: string[] = [];
    client.on('notification', (message) => {
      if (message.channel === AUTH_CHANNEL) heard.push(message.payload ?? '');
    });
    await client.query(`listen ${AUTH_CHANNEL}`);
    try {
      const ws = await newWorkspace(t.db);
      await expect(
        changeAuth(t.db, { workspaceId: ws.actor.workspaceId }, async () => {
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      await changeAuth(t.db, { workspaceId: ws.actor.workspaceId }, async () => undefined);
      const deadline = Date.now() + 5_000;
      while (heard.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(heard).toEqual([`workspace:${ws.actor.workspaceId}`]);
    } finally {
      await client.query(`unlisten ${AUTH_CHANNEL}`);
      client.release();
    }
  });

  it('reads back each payload it writes, and anything else as a change to everything', () => {
    for (const change of [{ keyId: 'key_1' }, { userId: 'usr_1' }, { workspaceId: 'ws_1' }, 'all'] as const) {
      expect(authChangeFromPayload(authChangePayload(change))).toEqual(change);
    }
    expect(authChangeFromPayload('')).toBe('all');
    expect(authChangeFromPayload('team:x')).toBe('all');
    expect(authChangeFromPayload('key:')).toBe('all');
  });
});

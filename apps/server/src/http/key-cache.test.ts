import { AUTH_CHANNEL } from '@crm/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../testing/test-app.ts';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.stop());

/** The pid of the service's LISTEN connection on the auth channel, once it listens. */
async function listener(other?: number): Promise<number> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const result = await app.service.pool.query<{ pid: number }>(
      `select pid from pg_stat_activity
        where datname = current_database() and query = $1 and state = 'idle' and pid <> $2`,
      [`listen ${AUTH_CHANNEL}`, other ?? 0],
    );
    if (result.rows[0]) return result.rows[0].pid;
    if (Date.now() > deadline) throw new Error('no listener on the auth channel');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const revokeSilently = (apiKey: string) =>
  app.service.pool.query(
    `update api_keys set revoked_at = now()
      where secret_hash = encode(sha256(convert_to($1, 'UTF8')), 'hex')`,
    [apiKey],
  );

describe("the service's API key cache", () => {
  it('keeps a verified key while it listens, and forgets every key when the LISTEN connection is lost', async () => {
    const kept = await app.createWorkspace();
    const dropped = await app.createWorkspace();
    const pid = await listener();
    for (const ws of [kept, dropped])
      expect((await app.api(ws.apiKey, 'GET', '/api/v1/me')).status).toBe(200);
    // Kept: a revocation nobody announced goes unseen.
    await revokeSilently(kept.apiKey);
    expect((await app.api(kept.apiKey, 'GET', '/api/v1/me')).status).toBe(200);

    // The connection ends (as in a database restart): whatever changed meanwhile may have
    // been missed, so no key is trusted from memory any more.
    await app.service.pool.query('select pg_terminate_backend($1)', [pid]);
    await revokeSilently(dropped.apiKey);
    const newPid = await listener(pid);
    expect(newPid).not.toBe(pid);
    expect((await app.api(kept.apiKey, 'GET', '/api/v1/me')).status).toBe(401);
    expect((await app.api(dropped.apiKey, 'GET', '/api/v1/me')).status).toBe(401);
  });
});

import { AUTH_CHANNEL, FOLDER_CHANNEL } from '@crm/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../testing/test-app.ts';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.stop());

/** The pid of the service's LISTEN connection on the auth and folder channels, once it listens. */
async function listener(other?: number): Promise<number> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const result = await app.service.pool.query<{ pid: number }>(
      `select pid from pg_stat_activity
        where datname = current_database() and query = $1 and state = 'idle' and pid <> $2`,
      [`listen ${AUTH_CHANNEL}; listen ${FOLDER_CHANNEL}`, other ?? 0],
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

describe("the service's API key and folder caches", () => {
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

  it('keeps a folder read by a list, sees a change made through the API at once, and one made behind its back on a notification', async () => {
    const ws = await app.createWorkspace();
    await listener();
    const folders = await app.api(ws.apiKey, 'GET', '/api/v1/folders');
    const people = folders.body.data[0];
    const list = () =>
      app.api(ws.apiKey, 'GET', `/api/v1/records?folderId=${people.id}&filter[data.tier]=Gold`);
    // No field `tier` yet: the list refuses the filter, and keeps the folder as it read it.
    expect((await list()).status).toBe(400);
    const added = await app.api(ws.apiKey, 'POST', `/api/v1/folders/${people.id}/fields`, {
      key: 'tier',
      label: 'Tier',
      type: 'SELECT',
      options: ['Gold', 'Silver'],
    });
    expect(added.status).toBe(201);
    // Seen by the very next request of the process that changed it.
    expect((await list()).status).toBe(200);

    // A change nobody announced (an UPDATE typed by hand) goes unseen while the folder is kept …
    await app.service.pool.query(
      `update folders set fields = fields - (jsonb_array_length(fields) - 1) where workspace_id = $1 and id = $2`,
      [ws.workspaceId, people.id],
    );
    expect((await list()).status).toBe(200);
    // … until a notification names it.
    await app.service.pool.query('select pg_notify($1, $2)', [
      FOLDER_CHANNEL,
      `${ws.workspaceId} ${people.id}`,
    ]);
    const deadline = Date.now() + 5_000;
    let status = 200;
    while (status === 200 && Date.now() < deadline) {
      status = (await list()).status;
      if (status === 200) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(status).toBe(400);
  });
});

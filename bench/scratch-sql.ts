import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closePool, createDatabase, createPool, runMigrations, startEmbeddedPostgres } from '@crm/db';
import { authenticateApiKey, consumeRateLimit, createApiKey, createRecord, createWorkspace, findRecords, getRecord, findFolders } from '@crm/domain';
import pg from 'pg';

const dir = await mkdtemp(join(tmpdir(), 'crm-scratch-'));
const emb = await startEmbeddedPostgres({ dataDir: dir, port: 0 });
try {
  await runMigrations(emb.connectionString);
  const pool = createPool({ connectionString: emb.connectionString });
  const db = createDatabase(pool);
  const ws = await createWorkspace(db, { name: 'x', owner: { email: 'a@b.c', name: 'A' }, rateLimitPerMinute: 1_000_000_000 });
  const key = await createApiKey(db, { workspaceId: ws.workspaceId, userId: ws.userId, name: 'k' });
  const orig = pg.Client.prototype.query;
  let log = true;
  (pg.Client.prototype as any).query = function (this: any, ...args: any[]) {
    if (log) console.log('SQL>', JSON.stringify(typeof args[0] === 'string' ? { text: args[0], values: args[1] } : { text: args[0]?.text, values: args[0]?.values ?? args[1], name: args[0]?.name, rowMode: args[0]?.rowMode }));
    return (orig as any).apply(this, args);
  };
  console.log('--- auth');
  const k = await authenticateApiKey(db, key.secret);
  console.log('--- auth again');
  await authenticateApiKey(db, key.secret);
  console.log('--- ratelimit');
  await consumeRateLimit(db, `ws:${k.workspaceId}`, k.rateLimitPerMinute);
  const actor = { workspaceId: k.workspaceId, userId: k.userId, userName: k.userName, role: k.role, apiKeyId: k.keyId, scopes: k.scopes };
  log = false;
  const folders = await findFolders(db, actor as any, {} as any);
  log = true;
  console.log(JSON.stringify(folders).slice(0, 400));
  const folderId = (folders as any).data?.[0]?.id ?? (folders as any)[0]?.id;
  console.log('--- create');
  const c = await createRecord(db, actor as any, { folderId, title: 'Ann', email: 'ann@x.io', phone: '+1 555', data: { company: 'Acme', lifecycle: 'Lead' } });
  console.log(JSON.stringify(c));
  console.log('--- get');
  await getRecord(db, actor as any, c.record.id);
  console.log('--- list');
  console.log(JSON.stringify(await findRecords(db, actor as any, { pageSize: 50 } as any)));
  console.log('--- q');
  await findRecords(db, actor as any, { pageSize: 50, q: 'acme' } as any);
  log = false;
  await closePool(pool);
} finally {
  await emb.stop();
  await rm(dir, { recursive: true, force: true });
}

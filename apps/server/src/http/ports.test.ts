import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '@crm/db';
import { createTestDatabase } from '@crm/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEnv } from '../env.ts';
import { createLogger } from '../logger.ts';
import { startService } from '../service.ts';
import { listenOn } from './listen.ts';

/** A port another process holds: a server of this test on loopback. */
let holder: Server;
let taken: number;

beforeAll(async () => {
  holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  taken = (holder.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => holder.close(resolve)));

describe('a port another process holds (docs/operations.md, "Two instances on one host")', () => {
  it('is refused with an error naming the setting and how to change it', async () => {
    const server = createServer();
    const refusal = listenOn(server, taken, '127.0.0.1', 'PORT');
    await expect(refusal).rejects.toThrow(
      `PORT=${taken}: another process already listens on 127.0.0.1:${taken} (a second instance of this service?). Set PORT to a free port (0 picks one), e.g. PORT=${taken + 1}`,
    );
    await expect(refusal).rejects.toMatchObject({ code: 'EADDRINUSE', variable: 'PORT' });
  });

  it('stops a start whose OPS_PORT is taken, naming OPS_PORT and the way to turn it off, and leaves nothing listening', async () => {
    const database = await createTestDatabase();
    try {
      const env = readEnv({
        DATABASE_URL: database.connectionString,
        HOST: '127.0.0.1',
        PORT: '0',
        OPS_PORT: String(taken),
        ROLE: 'api',
        LOG_LEVEL: 'silent',
        ...(process.env.SECRETS_KEY ? { SECRETS_KEY: process.env.SECRETS_KEY } : {}),
      });
      const start = startService(env, createLogger('silent'));
      await expect(start).rejects.toThrow(/^OPS_PORT=\d+: another process already listens .*OPS_PORT=off/);
    } finally {
      await database.drop();
    }
  });

  it('refuses an embedded database port that is taken before PostgreSQL starts, naming EMBEDDED_PG_PORT', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'crm-port-'));
    try {
      const start = startEmbeddedPostgres({ dataDir, port: taken, portSetting: 'EMBEDDED_PG_PORT' });
      await expect(start).rejects.toThrow(
        new RegExp(
          `^EMBEDDED_PG_PORT=${taken}: another process already listens on 127\\.0\\.0\\.1:${taken} .*Set EMBEDDED_PG_PORT to a free port \\(0 picks one\\)`,
        ),
      );
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

import { Socket } from 'node:net';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closePool, createPool } from '../client.ts';
import { createTestDatabase, type TestDatabase } from '../testing/index.ts';
import { socketOf } from './pg.ts';

/** The shape of node-postgres that pg.ts reads past its declared types. */
let database: TestDatabase;
let pool: pg.Pool;

beforeAll(async () => {
  database = await createTestDatabase();
  pool = createPool({ connectionString: database.connectionString, max: 1 });
});
afterAll(async () => {
  await closePool(pool);
  await database.drop();
});

describe('pg internals this service relies on', () => {
  it("a client's connection keeps its socket at connection.stream, closed when the pool ends", async () => {
    const client = await pool.connect();
    const socket = socketOf(client);
    expect(socket).toBeInstanceOf(Socket);
    expect(socket.remotePort).toBeGreaterThan(0);
    client.release();
    await closePool(pool);
    expect(socket.closed).toBe(true);
  });
});

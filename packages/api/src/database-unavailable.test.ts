import { closePool, createDatabase, createPool, freePort, schema } from '@crm/db';
import { type AdministeredTestDatabase, createAdministeredTestDatabase } from '@crm/db/testing';
import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable, toErrorResponse } from './errors.ts';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });
/** How drizzle wraps a failed statement: its own message, the driver's error as `cause`. */
const drizzleWrapped = (cause: Error) =>
  Object.assign(new Error('Failed query: insert into "records" …\nparams: '), { cause });

describe('a database that cannot serve is a 503, however the error is wrapped', () => {
  const outages: [string, Error][] = [
    ['refused', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    [
      'refused on every address',
      new AggregateError([withCode('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')], 'connect failed'),
    ],
    ['reset', withCode('read ECONNRESET', 'ECONNRESET')],
    ['fast shutdown', withCode('terminating connection due to administrator command', '57P01')],
    ['shutting down', withCode('the database system is shutting down', '57P03')],
    ['starting up', withCode('the database system is starting up', '57P03')],
    ['too many connections', withCode('sorry, too many clients already', '53300')],
    ['connection exception', withCode('connection failure', '08006')],
    ['socket closed', new Error('Connection terminated unexpectedly')],
    ['dead client', new Error('Client has encountered a connection error and is not queryable')],
    ['closed client', new Error('Client was closed and is not queryable')],
    ['pool timeout', new Error('timeout exceeded when trying to connect')],
    ['connect timeout', new Error('Connection terminated due to connection timeout')],
    ['pool closed at shutdown', new Error('Cannot use a pool after calling end on the pool')],
  ];

  for (const [name, error] of outages) {
    it(`${name}: bare, wrapped by drizzle, and inside a TRPCError`, () => {
      const wrapped = drizzleWrapped(error);
      for (const candidate of [
        error,
        wrapped,
        new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: wrapped }),
        new Error('outer', { cause: new Error('middle', { cause: wrapped }) }),
      ]) {
        expect(isDatabaseUnavailable(candidate), name).toBe(true);
        const response = toErrorResponse(candidate, 'r');
        expect(response.status).toBe(503);
        expect(response.body.error.code).toBe('UNAVAILABLE');
        expect(Number(response.headers['Retry-After'])).toBeGreaterThanOrEqual(1);
        expect(JSON.stringify(response.body)).not.toMatch(/Failed query|terminat|ECONN|queryable/);
      }
    });
  }

  it('leaves other failures, and a client hanging up, alone', () => {
    const aborted = withCode('aborted', 'ECONNRESET');
    const others = [
      new Error('boom'),
      drizzleWrapped(withCode('duplicate key value violates unique constraint', '23505')),
      drizzleWrapped(withCode('relation "records" does not exist', '42P01')),
      aborted,
      new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: aborted }),
      'Connection terminated',
      null,
    ];
    for (const error of others) expect(isDatabaseUnavailable(error), String(error)).toBe(false);
  });

  it('stops on a cause chain that loops', () => {
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    a.cause = b;
    expect(isDatabaseUnavailable(a)).toBe(false);
  });
});

describe('what node-postgres and drizzle really throw', () => {
  let database: AdministeredTestDatabase;
  let admin: AdministeredTestDatabase['admin'];

  beforeAll(async () => {
    database = await createAdministeredTestDatabase();
    admin = database.admin;
  });

  afterAll(() => database.drop());

  it('a session ended in the middle of a transaction', async () => {
    const pool = createPool({ connectionString: database.connectionString, max: 1 });
    const db = createDatabase(pool);
    try {
      const pid = (await pool.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
      const error = await db
        .transaction(async (tx) => {
          await tx.select().from(schema.workspaces).limit(1);
          await admin.query('select pg_terminate_backend($1)', [pid]);
          await new Promise((resolve) => setTimeout(resolve, 50));
          await tx.select().from(schema.workspaces).limit(1);
        })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toMatch(/^Failed query/);
      expect(toErrorResponse(error, 'r').status).toBe(503);
      expect(
        toErrorResponse(new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: error }), 'r').status,
      ).toBe(503);
    } finally {
      await closePool(pool);
    }
  });

  it('a server that is not there', async () => {
    const url = new URL(database.connectionString);
    url.port = String(await freePort());
    const pool = createPool({ connectionString: url.toString(), max: 1 });
    try {
      const error = await createDatabase(pool)
        .select()
        .from(schema.workspaces)
        .catch((caught: unknown) => caught);
      expect(toErrorResponse(error, 'r').status).toBe(503);
    } finally {
      await closePool(pool);
    }
  });
});

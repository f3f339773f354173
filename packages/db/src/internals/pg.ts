import type { Socket } from 'node:net';
import type pg from 'pg';

/**
 * The one place that reaches into node-postgres past its declared types
 * (docs/decisions/0010-two-patches-remain.md, "Internals"). `pg.test.ts` beside this file
 * checks the shape, so an upgrade of pg that moves it fails there first.
 */

/** The socket of a client's connection (`connection.stream`), to wait for its close on shutdown. */
export function socketOf(client: pg.ClientBase): Socket {
  const { connection } = client as pg.ClientBase & { connection?: { stream?: Socket } };
  if (!connection?.stream) throw new Error('pg no longer keeps its socket at connection.stream');
  return connection.stream;
}

/**
 * Preloaded into both servers (node --import) while the parity check runs: appends one JSON
 * line per statement a pg client sends (its pool's application_name and session options,
 * the prepared statement's name if any, the SQL text, the JS types of the parameters and
 * their values, Dates as ISO strings) to the file named by BENCH_TRACE_SQL. Once
 * that file is deleted, tracing stops (checked at most every 100 ms) until a SIGUSR2 finds
 * the file there again, so the measured runs pay two counter increments per statement and
 * nothing else. The counts (statements and transactions) go on for the benchmark's per-request
 * figures.
 *
 * Plain JavaScript, loaded before tsx, and resolving `pg` to the same module instance as
 * the servers (the workspace has one pg), so patching the prototype reaches every pool.
 */
import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import pg from 'pg';

const file = process.env.BENCH_TRACE_SQL;
if (file) {
  let on = true;
  let checkedAt = 0;
  const tracing = () => {
    if (!on) return false;
    const now = Date.now();
    if (now - checkedAt >= 100) {
      checkedAt = now;
      on = existsSync(file);
    }
    return on;
  };
  // SIGUSR2 switches tracing back on when the file exists again: the relations step (main.ts)
  // captures the statements of its reads long after the measured runs began. Nothing is read
  // per statement for it.
  process.on('SIGUSR2', () => {
    on = existsSync(file);
    checkedAt = Date.now();
  });
  const typeOf = (value) =>
    value === null || value === undefined ? 'null' : value instanceof Date ? 'Date' : typeof value;
  const jsonValue = (value) =>
    value === undefined
      ? null
      : value instanceof Date
        ? value.toISOString()
        : typeof value === 'bigint'
          ? String(value)
          : Buffer.isBuffer(value)
            ? `\\x${value.toString('hex')}`
            : value;
  // Statements and transactions sent, counted for the whole life of the process and written
  // to `<file>.counts` every 250 ms while they change: a statement outside BEGIN … COMMIT is a
  // transaction of its own, one between them belongs to the transaction BEGIN opened.
  const counts = { statements: 0, transactions: 0 };
  let written = -1;
  setInterval(() => {
    if (counts.statements === written) return;
    written = counts.statements;
    try {
      writeFileSync(`${file}.counts`, JSON.stringify(counts));
    } catch {
      // the folder is gone: the run is over
    }
  }, 250).unref();
  const inTransaction = new WeakSet();
  const count = (client, text) => {
    counts.statements++;
    if (/^\s*(begin|start transaction)\b/i.test(text)) {
      inTransaction.add(client);
      counts.transactions++;
    } else if (/^\s*(commit|rollback|end)\s*;?\s*$/i.test(text)) {
      inTransaction.delete(client);
    } else if (!inTransaction.has(client)) {
      counts.transactions++;
    }
  };
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (...args) {
    const [config, values] = args;
    const sent = typeof config === 'string' ? config : config?.text;
    if (typeof sent === 'string') count(this, sent);
    if (tracing()) {
      const text = typeof config === 'string' ? config : config?.text;
      const params = (typeof config === 'string' ? values : (config?.values ?? values)) ?? [];
      const { application_name: app, options } = this.connectionParameters ?? {};
      if (typeof text === 'string') {
        const line = {
          app,
          options: options ?? null,
          name: typeof config === 'string' ? null : (config?.name ?? null),
          text,
          types: Array.isArray(params) ? params.map(typeOf) : [],
          values: Array.isArray(params) ? params.map(jsonValue) : [],
        };
        try {
          let json;
          try {
            json = JSON.stringify(line);
          } catch {
            // A value JSON cannot hold (a BigInt deep in an array): the statement without values.
            json = JSON.stringify({ ...line, values: null });
          }
          appendFileSync(file, `${json}\n`);
        } catch {
          on = false;
        }
      }
    }
    return query.apply(this, args);
  };
}

import type { Database } from '@crm/db';

/** Work a request does on one transaction, ended by `finish` once its response is known. */
export interface RequestWork {
  db: Database;
  /**
   * Called once with the final response (and the headers a replay must repeat, such as
   * `Location`); rejects when the commit fails (the client must then hear of the failure, not
   * of the success).
   */
  finish(status: number, body: string, headers?: Record<string, string>): Promise<void>;
}

const ROLLBACK = Symbol('rollback');

/**
 * A REPEATABLE READ transaction the request's procedure runs on, for a conditional write
 * (`If-Match`, docs/api.md "HTTP conventions"): the current representation is read in it, and
 * a write to a row another transaction changed after that read fails with a serialization
 * error instead of overwriting the change. `finish` commits below status 400 and rolls back
 * otherwise.
 */
export async function beginRequestTransaction(db: Database): Promise<RequestWork> {
  let decide!: (commit: boolean) => void;
  const decided = new Promise<boolean>((resolve) => {
    decide = resolve;
  });
  let started!: (tx: Database) => void;
  const ready = new Promise<Database>((resolve) => {
    started = resolve;
  });
  const done = db
    .transaction(
      async (tx) => {
        started(tx as unknown as Database);
        if (!(await decided)) throw ROLLBACK;
      },
      { isolationLevel: 'repeatable read' },
    )
    .catch((error: unknown) => {
      if (error !== ROLLBACK) throw error;
    });
  const tx = await Promise.race([
    ready,
    done.then(() => {
      throw new Error('the request transaction ended before its work began');
    }),
  ]);
  let finished: Promise<void> | undefined;
  return {
    db: tx,
    finish(status) {
      if (!finished) {
        decide(status < 400);
        finished = done;
      }
      return finished;
    },
  };
}

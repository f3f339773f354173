import { type Database, schema } from '@crm/db';
import {
  IDEMPOTENCY_TTL_HOURS,
  idempotencyKeyReused,
  idempotencyKeyRunning,
  openSecret,
  sealSecret,
} from '@crm/domain';
import { and, eq, sql } from 'drizzle-orm';

/**
 * The replay store of `Idempotency-Key` on POST and PATCH (docs/api.md, "Idempotency-Key"):
 * the first answer to a key, as sent (status, headers, body), kept 24 hours and sent again to
 * a duplicate. An HTTP answer, so it is kept here, in the HTTP layer; the domain knows the
 * key's shape, its fingerprint and how long it is kept (@crm/domain, idempotency-keys.ts).
 */

/** A response kept under a key, replayed to later duplicates. */
interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The kept answer to send again. */
export interface Replay extends StoredResponse {
  kind: 'replay';
}

/** An idempotent request that may proceed: its work runs on `tx`; `finish` ends it. */
export interface IdempotentWork {
  kind: 'claimed';
  /** The request's transaction; the work it guards must run on it. */
  tx: Database;
  /**
   * Commits the work together with the response stored under the key, or, given null (the
   * request failed in a way a retry may fix), rolls the work back and keeps nothing.
   * Rejects when the commit fails: then nothing was done and the client must not be told
   * otherwise.
   */
  finish(response: StoredResponse | null): Promise<void>;
}

/** Thrown out of the transaction to end it: with the answer to give instead, or none. */
class EndWithout {
  constructor(readonly answer: Replay | Error | null) {}
}

/**
 * Starts an idempotent request: the answer to replay, a 409 while the first request with
 * the key still runs, a 422 for another body under the same key; or a transaction for the
 * work.
 *
 * Exactly once, also across a crash: the work and the stored response commit in one
 * transaction, so a process that dies midway leaves either nothing (the retry does the
 * work) or a finished key (the retry replays it), never a done deed without its key. While
 * the request runs, the transaction holds an advisory lock on the key; a duplicate that
 * cannot take it answers 409. The lock belongs to the database session, so it is freed the
 * moment a dead process's connection closes, not after a timeout.
 */
export async function beginIdempotentWork(
  db: Database,
  workspaceId: string,
  key: string,
  fingerprint: string,
  /** `repeatable read` for a conditional request (If-Match), whose check runs in this transaction. */
  isolationLevel?: 'repeatable read',
): Promise<Replay | IdempotentWork> {
  const k = schema.idempotencyKeys;
  let settleResponse!: (response: StoredResponse | null) => void;
  const response = new Promise<StoredResponse | null>((resolve) => {
    settleResponse = resolve;
  });
  let started!: (work: IdempotentWork) => void;
  const ready = new Promise<IdempotentWork>((resolve) => {
    started = resolve;
  });
  const committed = db.transaction(
    async (tx) => {
      const lock = await tx.execute<{ locked: boolean }>(
        sql`select pg_try_advisory_xact_lock(hashtextextended(${`idempotency\n${workspaceId}\n${key}`}, 0)) as locked`,
      );
      if (!lock.rows[0]?.locked) throw new EndWithout(idempotencyKeyRunning());
      const [existing] = await tx
        .select()
        .from(k)
        .where(
          and(
            eq(k.workspaceId, workspaceId),
            eq(k.key, key),
            eq(k.state, 'done'),
            sql`${k.createdAt} >= now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})`,
          ),
        );
      if (existing) {
        if (existing.fingerprint !== fingerprint || existing.status === null) {
          throw new EndWithout(idempotencyKeyReused());
        }
        throw new EndWithout({
          kind: 'replay',
          status: existing.status,
          headers: existing.headers ?? {},
          body: openSecret(existing.body ?? ''),
        });
      }
      started({
        kind: 'claimed',
        tx: tx as unknown as Database,
        finish: (stored) => {
          settleResponse(stored);
          return committed.then(
            () => undefined,
            (error: unknown) => {
              if (error instanceof EndWithout) return;
              throw error;
            },
          );
        },
      });
      const stored = await response;
      if (stored === null) throw new EndWithout(null);
      const row = {
        fingerprint,
        state: 'done' as const,
        status: stored.status,
        headers: stored.headers,
        // A replayed answer may show a secret once more (a new API key, a signing secret).
        body: sealSecret(stored.body),
        // An instant passed in, not now(): a sharded database takes no functions but
        // immutable ones in an upsert's SET (docs/scaling.md).
        createdAt: new Date(),
        updatedAt: new Date(),
      };
      await tx
        .insert(k)
        .values({ workspaceId, key, ...row })
        .onConflictDoUpdate({ target: [k.workspaceId, k.key], set: row });
    },
    isolationLevel ? { isolationLevel } : undefined,
  );
  return Promise.race([
    ready,
    committed.then(
      () => {
        throw new Error('the idempotent transaction ended before its work began');
      },
      (error: unknown) => {
        if (!(error instanceof EndWithout) || error.answer === null) throw error;
        if (error.answer instanceof Error) throw error.answer;
        return error.answer;
      },
    ),
  ]);
}

import { createHash } from 'node:crypto';
import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq, sql } from 'drizzle-orm';
import { canonicalJson } from '../shared/canonical-json.ts';
import { DomainError, invalid } from '../shared/errors.ts';
import { missing } from '../shared/missing.ts';
import { openSecret, sealSecret } from '../shared/secret-box.ts';

/** How long a key remembers its response (docs/api.md, "Idempotency-Key"). */
export const IDEMPOTENCY_TTL_HOURS = 24;
const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;

export type IdempotencyClaim =
  | { kind: 'claimed' }
  | { kind: 'replay'; status: number; headers: Record<string, string>; body: string }
  | { kind: 'running' }
  | { kind: 'mismatch' };

/**
 * Turns a claim into its answer: a key reused with another body is a 422, one whose first
 * request still runs a 409 (docs/api.md, "Idempotency-Key"); a replay or a fresh claim is for
 * the caller.
 */
function settleIdempotencyClaim(
  claim: IdempotencyClaim,
): Extract<IdempotencyClaim, { kind: 'replay' | 'claimed' }> {
  if (claim.kind === 'mismatch') {
    throw new DomainError(
      'IDEMPOTENCY_KEY_REUSED',
      'This Idempotency-Key was already used with a different request',
    );
  }
  if (claim.kind === 'running') {
    throw new DomainError('CONFLICT', 'A request with this Idempotency-Key is still running; retry shortly');
  }
  return claim;
}

export function assertIdempotencyKey(key: string): void {
  if (!KEY_SHAPE.test(key)) {
    throw invalid('Idempotency-Key', 'must be 1 to 255 visible ASCII characters');
  }
}

/** Same request ⇔ same method, route and body (object keys in any order). */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${path}\n${canonicalJson(body)}`)
    .digest('hex');
}

/** A response kept under a key, replayed to later duplicates. */
interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
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

/** Thrown out of the transaction to end it without storing anything. */
class EndWithout {
  constructor(readonly answer: Exclude<IdempotencyClaim, { kind: 'claimed' }> | null) {}
}

/**
 * Starts an idempotent request (docs/api.md, "Idempotency-Key"): the answer to
 * replay, a 409 while the first request with the key still runs, a 422 for another body
 * under the same key; or a transaction for the work.
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
): Promise<Extract<IdempotencyClaim, { kind: 'replay' }> | IdempotentWork> {
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
      if (!lock.rows[0]?.locked) throw new EndWithout({ kind: 'running' });
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
        if (existing.fingerprint !== fingerprint) throw new EndWithout({ kind: 'mismatch' });
        throw new EndWithout(replayOf(existing));
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
        if (error instanceof EndWithout && error.answer) {
          return settleIdempotencyClaim(error.answer) as Extract<IdempotencyClaim, { kind: 'replay' }>;
        }
        throw error;
      },
    ),
  ]);
}

/**
 * The kept answer under a key that a request found taken (the trigger endpoint stores its
 * answers in the statement that does the work): a replay; a 422 when the key was used with
 * another body; a 409 when no finished answer is there (the other request rolled back).
 */
export async function findIdempotentAnswer(
  db: Database,
  workspaceId: string,
  key: string,
  fingerprint: string,
): Promise<Extract<IdempotencyClaim, { kind: 'replay' }>> {
  const k = schema.idempotencyKeys;
  const [existing] = await db
    .select()
    .from(k)
    .where(and(eq(k.workspaceId, workspaceId), eq(k.key, key), eq(k.state, 'done')));
  if (!existing) return settleIdempotencyClaim({ kind: 'running' }) as never;
  if (existing.fingerprint !== fingerprint) return settleIdempotencyClaim({ kind: 'mismatch' }) as never;
  return replayOf(existing);
}

function replayOf(
  row: typeof schema.idempotencyKeys.$inferSelect,
): Extract<IdempotencyClaim, { kind: 'replay' }> {
  return {
    kind: 'replay',
    status: row.status ?? missing('row.status'),
    headers: row.headers ?? {},
    body: openSecret(row.body ?? ''),
  };
}

export async function pruneIdempotencyKeys(db: Database): Promise<number> {
  const result = await db.execute(
    sql`delete from idempotency_keys where created_at < now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})`,
  );
  return result.rowCount ?? 0;
}

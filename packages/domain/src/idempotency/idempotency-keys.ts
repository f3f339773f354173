import { createHash } from 'node:crypto';
import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq, sql } from 'drizzle-orm';
import { canonicalJson } from '../shared/canonical-json.ts';
import { DomainError, invalid } from '../shared/errors.ts';

/**
 * What the domain knows of `Idempotency-Key` (docs/api.md, "Idempotency-Key"): a key's
 * shape, the fingerprint of a request, how long a key is kept, its two refusals, and the
 * answers of the trigger URL kept with the runs they queued (workflows/accept-trigger.ts).
 * The replay of a REST answer as it was sent is the HTTP layer's (apps/server,
 * rest/idempotency-store.ts).
 */

/** How long a key remembers its answer. */
export const IDEMPOTENCY_TTL_HOURS = 24;
const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;

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

/** A key reused with another request. */
export function idempotencyKeyReused(): DomainError {
  return new DomainError(
    'IDEMPOTENCY_KEY_REUSED',
    'This Idempotency-Key was already used with a different request',
  );
}

/** A key whose first request still runs (or rolled back just now). */
export function idempotencyKeyRunning(): DomainError {
  return new DomainError('CONFLICT', 'A request with this Idempotency-Key is still running; retry shortly');
}

/**
 * The answer kept under a key that a trigger call found taken (the trigger URL keeps its
 * answers in the statement that queues the run, workflows/accept-trigger.ts): the first
 * call's answer, parsed; IDEMPOTENCY_KEY_REUSED when the key was used with another request;
 * CONFLICT when no finished answer is there (the other call rolled back).
 */
export async function findKeptAnswer(
  db: Database,
  workspaceId: string,
  key: string,
  fingerprint: string,
): Promise<unknown> {
  const k = schema.idempotencyKeys;
  const [existing] = await db
    .select({ fingerprint: k.fingerprint, body: k.body })
    .from(k)
    .where(and(eq(k.workspaceId, workspaceId), eq(k.key, key), eq(k.state, 'done')));
  if (!existing) throw idempotencyKeyRunning();
  if (existing.fingerprint !== fingerprint || existing.body === null) throw idempotencyKeyReused();
  return JSON.parse(existing.body);
}

export async function pruneIdempotencyKeys(db: Database): Promise<number> {
  const result = await db.execute(
    sql`delete from idempotency_keys where created_at < now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})`,
  );
  return result.rowCount ?? 0;
}

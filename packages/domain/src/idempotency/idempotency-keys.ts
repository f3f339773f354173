import { createHash } from 'node:crypto';
import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq, sql } from 'drizzle-orm';
import { DomainError, invalid } from '../shared/errors.ts';

/** How long a key remembers its response (contract §5). */
export const IDEMPOTENCY_TTL_HOURS = 24;
/**
 * A request still marked running after this long is taken to have died with its process;
 * the key may then be claimed again.
 */
export const ABANDONED_AFTER_MINUTES = 5;

const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;

export type IdempotencyClaim =
  | { kind: 'claimed' }
  | { kind: 'replay'; status: number; headers: Record<string, string>; body: string }
  | { kind: 'running' }
  | { kind: 'mismatch' };

/**
 * Turns a claim into its answer: a key reused with another body is a 422, one whose first
 * request still runs a 409 (contract §5); a replay or a fresh claim is for the caller.
 */
export function settleIdempotencyClaim(
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

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * Claims a key for a request, or tells what to answer instead: the stored response to
 * replay, a request still running (409) or a key used with another body (422). The claim
 * is one atomic upsert, so of concurrent duplicates exactly one proceeds.
 */
export async function claimIdempotencyKey(
  db: Database,
  workspaceId: string,
  key: string,
  fingerprint: string,
): Promise<IdempotencyClaim> {
  const k = schema.idempotencyKeys;
  for (let attempt = 0; attempt < 3; attempt++) {
    const claimed = await db
      .insert(k)
      .values({
        workspaceId,
        key,
        fingerprint,
        state: 'running',
        createdAt: sql`now()`,
        updatedAt: sql`now()`,
      })
      .onConflictDoUpdate({
        target: [k.workspaceId, k.key],
        set: {
          fingerprint,
          state: 'running',
          status: null,
          headers: null,
          body: null,
          createdAt: sql`now()`,
          updatedAt: sql`now()`,
        },
        setWhere: sql`${k.createdAt} < now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})
          or (${k.state} = 'running' and ${k.updatedAt} < now() - make_interval(mins => ${ABANDONED_AFTER_MINUTES}))`,
      })
      .returning({ key: k.key });
    if (claimed.length > 0) return { kind: 'claimed' };
    const [existing] = await db
      .select()
      .from(k)
      .where(and(eq(k.workspaceId, workspaceId), eq(k.key, key)));
    if (!existing) continue; // released between the two statements: claim again
    if (existing.fingerprint !== fingerprint) return { kind: 'mismatch' };
    if (existing.state === 'running') return { kind: 'running' };
    return {
      kind: 'replay',
      status: existing.status!,
      headers: existing.headers ?? {},
      body: existing.body ?? '',
    };
  }
  return { kind: 'running' };
}

/** Stores the response of a claimed key so later duplicates replay it. */
export async function completeIdempotencyKey(
  db: Database,
  workspaceId: string,
  key: string,
  response: { status: number; headers: Record<string, string>; body: string },
): Promise<void> {
  const k = schema.idempotencyKeys;
  await db
    .update(k)
    .set({
      state: 'done',
      status: response.status,
      headers: response.headers,
      body: response.body,
      updatedAt: sql`now()`,
    })
    .where(and(eq(k.workspaceId, workspaceId), eq(k.key, key)));
}

/** Forgets a claimed key whose request failed unexpectedly, so the client can retry it. */
export async function releaseIdempotencyKey(db: Database, workspaceId: string, key: string): Promise<void> {
  const k = schema.idempotencyKeys;
  await db.delete(k).where(and(eq(k.workspaceId, workspaceId), eq(k.key, key), eq(k.state, 'running')));
}

export async function pruneIdempotencyKeys(db: Database): Promise<number> {
  const result = await db.execute(
    sql`delete from idempotency_keys where created_at < now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})`,
  );
  return result.rowCount ?? 0;
}

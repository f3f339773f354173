import type { Database, Executor } from '@crm/db';
import { sql } from 'drizzle-orm';

/**
 * Changes that alter what an API key may do reach every process's key cache through this
 * channel (docs/operations.md, "API keys in memory"): the key revoked, its user's membership
 * or role changed, its workspace's rate limit changed.
 */
export const AUTH_CHANNEL = 'crm_auth';

/** What changed: one key, everything of one user or one workspace, or anything at all. */
export type AuthChange = { keyId: string } | { userId: string } | { workspaceId: string } | 'all';

export function authChangePayload(change: AuthChange): string {
  if (change === 'all') return '*';
  if ('keyId' in change) return `key:${change.keyId}`;
  if ('userId' in change) return `user:${change.userId}`;
  return `workspace:${change.workspaceId}`;
}

/**
 * Reads a notification's payload. Anything not understood (an operator's bare
 * `NOTIFY crm_auth`, say) drops every cached key: forgetting too much only costs lookups.
 */
export function authChangeFromPayload(payload: string): AuthChange {
  const colon = payload.indexOf(':');
  const value = payload.slice(colon + 1);
  if (colon > 0 && value) {
    switch (payload.slice(0, colon)) {
      case 'key':
        return { keyId: value };
      case 'user':
        return { userId: value };
      case 'workspace':
        return { workspaceId: value };
    }
  }
  return 'all';
}

type Subscriber = (change: AuthChange) => void;
const subscribers = new Set<Subscriber>();

/** Hears changes made by this process as soon as they commit; returns the unsubscribe. */
export function subscribeToAuthChanges(subscriber: Subscriber): () => void {
  subscribers.add(subscriber);
  return () => subscribers.delete(subscriber);
}

/**
 * Runs `work` in a transaction that also notifies every process of `change` when it commits,
 * then tells this process's caches at once, so the change holds from the very next request
 * here and within moments everywhere else. Every write that changes what a key may do goes
 * through here.
 */
export async function changeAuth<T>(
  db: Database,
  change: AuthChange,
  work: (tx: Executor) => Promise<T>,
): Promise<T> {
  const result = await db.transaction(async (tx) => {
    const value = await work(tx);
    await tx.execute(sql`select pg_notify(${AUTH_CHANNEL}, ${authChangePayload(change)})`);
    return value;
  });
  for (const subscriber of subscribers) subscriber(change);
  return result;
}

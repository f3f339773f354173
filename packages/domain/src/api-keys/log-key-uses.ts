import { type Database, namedStatement, runNamed } from '@crm/db';

/** How stale `lastUsedAt` may be: a key's use is written at most this often. */
export const KEY_USE_PRECISION_MS = 60_000;

export interface KeyUse {
  keyId: string;
  workspaceId: string;
  at: Date;
}

/**
 * The statement prepared as `record_key_uses`, the name SQL traces and the benchmark's parity
 * check know it by (the bare server sends this text too).
 */
export const RECORD_KEY_USES_SQL = `
  update api_keys k set last_used_at = u.at
    from unnest($1::text[], $2::text[], $3::timestamptz[]) as u(workspace_id, id, at)
   where k.workspace_id = u.workspace_id and k.id = u.id
     and (k.last_used_at is null or k.last_used_at < u.at)`;

const RECORD_KEY_USES = namedStatement('record_key_uses', RECORD_KEY_USES_SQL);

/** Writes the `lastUsedAt` of many keys in one statement; never moves one back in time. */
export async function logKeyUses(db: Database, uses: readonly KeyUse[]): Promise<void> {
  if (uses.length === 0) return;
  await runNamed(db, RECORD_KEY_USES, [
    uses.map((u) => u.workspaceId),
    uses.map((u) => u.keyId),
    uses.map((u) => u.at),
  ]);
}

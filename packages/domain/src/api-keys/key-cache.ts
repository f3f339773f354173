import type { Database } from '@crm/db';
import { type AuthChange, subscribeToAuthChanges } from './auth-changes.ts';
import { KEY_USE_PRECISION_MS, type KeyUse, logKeyUses } from './log-key-uses.ts';
import { hashSecret } from './secrets.ts';
import {
  type AuthenticatedKey,
  MISSING_KEY_MESSAGE,
  unauthorizedKey,
  verifyApiKey,
} from './verify-api-key.ts';

export interface ApiKeyCacheOptions {
  /**
   * How long a verified key is trusted before it is looked up again (default 30 s). Changes
   * made through the domain reach the cache at once by notification; this bounds how long a
   * change made some other way (an UPDATE typed by hand) goes unseen.
   */
  ttlMs?: number;
  /** Most keys kept (default 10,000); the one looked up longest ago makes room. */
  maxEntries?: number;
  now?: () => number;
}

interface Entry {
  hash: string;
  key: AuthenticatedKey;
  expiresAt: number | null;
  /** When this process last knew the key to be used (the stored value, or a use it noted). */
  lastUsedAt: number | null;
  loadedAt: number;
}

/**
 * The API keys this process has verified, kept in memory so that a request with a known key
 * costs no lookup (docs/operations.md, "API keys in memory").
 *
 * - Entries are kept only while `listening` is on: the server turns it on while its LISTEN on
 *   the auth channel is in effect, and off (dropping everything) when that connection is lost,
 *   so a change can never be missed unseen. Off, every request looks its key up.
 * - A change made by this process drops the matching entries before the writing call
 *   returns; one made by another process arrives as a notification (`apply`).
 * - A lookup that overlapped a change is not kept: its row may predate the change.
 * - Expiry is checked on every request, from the cached `expiresAt`.
 * - Uses are noted in memory, at most one a minute per key, and written together by
 *   `flushUses`. A key's very first use is written at once, so a new key shows as used.
 */
export class ApiKeyCache {
  private readonly entries = new Map<string, Entry>();
  private readonly uses = new Map<string, KeyUse>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;
  private readonly unsubscribe: () => void;
  /** Bumped by every change, so that a lookup which overlapped one is not kept. */
  private generation = 0;
  private listening = false;

  constructor(
    private readonly db: Database,
    options: ApiKeyCacheOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 30_000;
    this.maxEntries = options.maxEntries ?? 10_000;
    this.now = options.now ?? Date.now;
    this.unsubscribe = subscribeToAuthChanges((change) => this.apply(change));
  }

  /** Keys verified and kept right now. */
  get size(): number {
    return this.entries.size;
  }

  /** Whether changes are heard, and so whether verified keys may be kept. */
  setListening(listening: boolean): void {
    this.listening = listening;
    this.generation++;
    this.entries.clear();
  }

  /** Drops what `change` may have altered. */
  apply(change: AuthChange): void {
    this.generation++;
    if (change === 'all') {
      this.entries.clear();
      return;
    }
    for (const [hash, entry] of this.entries) {
      const hit =
        'keyId' in change
          ? entry.key.keyId === change.keyId
          : 'userId' in change
            ? entry.key.userId === change.userId
            : entry.key.workspaceId === change.workspaceId;
      if (hit) this.entries.delete(hash);
    }
  }

  /** Resolves a bearer secret as `authenticateApiKey` does, from memory when it can. */
  async authenticate(secret: string | undefined): Promise<AuthenticatedKey> {
    if (!secret) throw unauthorizedKey(MISSING_KEY_MESSAGE);
    const hash = hashSecret(secret);
    const now = this.now();
    const cached = this.entries.get(hash);
    if (cached && now - cached.loadedAt < this.ttlMs) {
      if (cached.expiresAt !== null && cached.expiresAt <= now) {
        this.entries.delete(hash);
        throw unauthorizedKey('This API key has expired');
      }
      this.noteUse(cached, now);
      return cached.key;
    }
    const generation = this.generation;
    const verified = await verifyApiKey(this.db, hash, now);
    const entry: Entry = { hash, ...verified, loadedAt: now };
    if (entry.lastUsedAt === null) {
      await logKeyUses(this.db, [use(entry, now)]);
      entry.lastUsedAt = now;
    } else {
      this.noteUse(entry, now);
    }
    if (this.listening && generation === this.generation) this.keep(entry);
    return entry.key;
  }

  /** Writes the uses noted since the last flush, in one statement; returns how many. */
  async flushUses(): Promise<number> {
    if (this.uses.size === 0) return 0;
    const batch = [...this.uses.values()];
    this.uses.clear();
    try {
      await logKeyUses(this.db, batch);
    } catch (error) {
      // Kept for the next flush, unless a newer use of the key was noted meanwhile.
      for (const item of batch) if (!this.uses.has(item.keyId)) this.uses.set(item.keyId, item);
      throw error;
    }
    return batch.length;
  }

  /** Stops hearing this process's changes, and so keeps no key any more. */
  close(): void {
    this.unsubscribe();
    this.setListening(false);
  }

  private noteUse(entry: Entry, now: number): void {
    if (entry.lastUsedAt !== null && now - entry.lastUsedAt < KEY_USE_PRECISION_MS) return;
    entry.lastUsedAt = now;
    this.uses.set(entry.key.keyId, use(entry, now));
  }

  private keep(entry: Entry): void {
    this.entries.delete(entry.hash);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(entry.hash, entry);
  }
}

function use(entry: Entry, now: number): KeyUse {
  return { keyId: entry.key.keyId, workspaceId: entry.key.workspaceId, at: new Date(now) };
}

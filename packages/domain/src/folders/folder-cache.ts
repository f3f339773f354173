import type { Database, Executor } from '@crm/db';
import { sql } from 'drizzle-orm';
import type { Actor } from '../shared/actor.ts';
import type { FolderRow } from './serialize.ts';

/**
 * Changes to folders (their fields, their name) reach every process's folder cache through
 * this channel (docs/operations.md, "Folders in memory"); the payload is `<workspaceId>
 * <folderId>`.
 */
export const FOLDER_CHANNEL = 'crm_folders';

export interface FolderCacheOptions {
  /**
   * How long a folder read is kept (default 30 s). Changes made through the domain reach the
   * cache at once by notification; this bounds how long a change made some other way (an
   * UPDATE typed by hand) goes unseen.
   */
  ttlMs?: number;
  /** Most folders kept (default 10,000); the one read longest ago makes room. */
  maxEntries?: number;
  now?: () => number;
}

interface Entry {
  row: FolderRow;
  loadedAt: number;
}

/** How long a change this process wrote keeps its folder out of the cache if no notification comes back (a rollback sends none). */
const CHANGING_MS = 10_000;

/** Every cache of this process, so that a change written here reaches them before it commits. */
const caches = new Set<FolderCache>();
/** The cache of each database handle the server made one for (attachFolderCache). */
const attached = new WeakMap<object, FolderCache>();

/**
 * The folders this process has read, kept in memory so that a request naming a folder (a
 * list, a record with `expand`, a page of related records, links) costs no statement to find
 * its fields (docs/operations.md, "Folders in memory"). Like the API key cache:
 *
 * - folders are kept only while `listening` is on, that is while the LISTEN on FOLDER_CHANNEL
 *   is in effect, and everything is dropped when that connection is lost;
 * - a change written by this process (saveFields, in its transaction) takes its folder out of
 *   every cache of the process and keeps it out until the change's own notification comes
 *   back after the commit, so no read of this process sees the folder as it was once the
 *   change has committed; other processes drop it when the notification arrives;
 * - a read that overlapped a change is not kept.
 *
 * Only reads without a lock, outside a transaction, go through it: a write that must see the
 * folder as it stands locks its row in its own transaction (loadFolder with `lock`).
 */
export class FolderCache {
  private readonly entries = new Map<string, Entry>();
  /** Folders a change of this process is writing: key → until when they are not kept. */
  private readonly changing = new Map<string, number>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;
  private generation = 0;
  private listening = false;

  constructor(options: FolderCacheOptions = {}) {
    this.ttlMs = options.ttlMs ?? 30_000;
    this.maxEntries = options.maxEntries ?? 10_000;
    this.now = options.now ?? Date.now;
    caches.add(this);
  }

  /** Folders kept right now. */
  get size(): number {
    return this.entries.size;
  }

  /** Whether changes are heard, and so whether folders may be kept. */
  setListening(listening: boolean): void {
    this.listening = listening;
    this.generation++;
    this.entries.clear();
  }

  /** A notification on FOLDER_CHANNEL: drops that folder, or every folder when the payload is not understood. */
  notified(payload: string): void {
    this.generation++;
    const [workspaceId, folderId, extra] = payload.split(' ');
    if (!workspaceId || !folderId || extra !== undefined) {
      this.entries.clear();
      this.changing.clear();
      return;
    }
    const key = keyOf(workspaceId, folderId);
    this.entries.delete(key);
    this.changing.delete(key);
  }

  /** A change of this process is being written: the folder is dropped and not kept until its notification. */
  changed(workspaceId: string, folderId: string): void {
    this.generation++;
    const key = keyOf(workspaceId, folderId);
    this.entries.delete(key);
    this.changing.set(key, this.now() + CHANGING_MS);
  }

  /** The folder, from memory when it is kept; `load` reads it (and throws NOT_FOUND) otherwise. */
  async get(actor: Actor, id: string, load: () => Promise<FolderRow>): Promise<FolderRow> {
    const key = keyOf(actor.workspaceId, id);
    const now = this.now();
    const kept = this.entries.get(key);
    if (kept && now - kept.loadedAt < this.ttlMs) return kept.row;
    const generation = this.generation;
    const row = await load();
    const until = this.changing.get(key);
    if (until !== undefined && until <= now) this.changing.delete(key);
    const changing = until !== undefined && until > now;
    if (this.listening && generation === this.generation && !changing) this.keep(key, row, now);
    return row;
  }

  /** Stops keeping folders, and leaves the process's set of caches. */
  close(): void {
    caches.delete(this);
    this.setListening(false);
  }

  private keep(key: string, row: FolderRow, now: number): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { row, loadedAt: now });
  }
}

const keyOf = (workspaceId: string, folderId: string) => `${workspaceId} ${folderId}`;

/** Reads of folders through `db` (the server's database handle, not a transaction) go through `cache`. */
export function attachFolderCache(db: Database, cache: FolderCache): void {
  attached.set(db, cache);
}

/** The cache reads through `db` use, if the server attached one. */
export function folderCacheOf(db: Executor): FolderCache | undefined {
  return attached.get(db);
}

/**
 * In the transaction that changes a folder: notifies every process on commit, and takes the
 * folder out of this process's caches now (they keep it out until that notification).
 */
export async function announceFolderChange(tx: Executor, workspaceId: string, folderId: string) {
  for (const cache of caches) cache.changed(workspaceId, folderId);
  await tx.execute(sql`select pg_notify(${FOLDER_CHANNEL}, ${`${workspaceId} ${folderId}`})`);
}

import type { Database, Executor } from '@crm/db';

/**
 * How many links records hold through the MANY sides of relations, as this process last
 * counted them, so that a batch of links need not count every side it adds to again
 * (docs/api.md, "Relations", the limit of links per record and field; docs/performance.md,
 * "Links in a batch").
 *
 * A side's tally is its count when last read plus the links this process made to it since.
 * It stands in for a count only while it is fresh (`ttlMs`, default 60 s) and leaves at least
 * TALLY_MARGIN of room under the limit once the batch's own links are added: near the limit,
 * every link is counted. Links made through other processes meanwhile are not in it, which is
 * what the margin is for; links removed meanwhile make it high, which only brings the next
 * count sooner. A tally is never lower than a count this process read, so one client linking
 * through one process meets the limit exactly.
 */
export class LinkTallies {
  private readonly entries = new Map<string, { count: number; countedAt: number }>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(options: { ttlMs?: number; maxEntries?: number; now?: () => number } = {}) {
    this.ttlMs = options.ttlMs ?? 60_000;
    this.maxEntries = options.maxEntries ?? 20_000;
    this.now = options.now ?? Date.now;
  }

  /** Sides kept right now. */
  get size(): number {
    return this.entries.size;
  }

  /**
   * The side's tally when it is fresh, else undefined (the side must be counted). A read
   * leaves the order alone: entries are kept in the order they were counted, which is the
   * order they go stale in, so the one counted longest ago makes room first. (Moving an entry
   * to the end on each read, as a least-recently-used cache does, cost 4 µs a side in a
   * batch of links: a Map that is deleted from and added to on every read rebuilds itself.)
   */
  known(key: string): number | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (this.now() - entry.countedAt >= this.ttlMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.count;
  }

  /** A count just read. */
  counted(key: string, count: number): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { count, countedAt: this.now() });
  }

  /** Links this process made to a side; a side it does not keep is left to its next count. */
  added(key: string, links: number): void {
    const entry = this.entries.get(key);
    if (entry) entry.count += links;
  }
}

/** Room a tally must leave under the limit to stand in for a count. */
export const TALLY_MARGIN = 1_000;

/** The tallies of each database handle the server made them for (attachLinkTallies). */
const attached = new WeakMap<object, LinkTallies>();

/** Batches of links through `db` (the server's handle) keep their counts in `tallies` (undefined: no longer). */
export function attachLinkTallies(db: Database, tallies: LinkTallies | undefined): void {
  if (tallies) attached.set(db, tallies);
  else attached.delete(db);
}

/** The tallies link requests through `db` use, if the server attached them: without, every side is counted. */
export function linkTalliesOf(db: Executor | undefined): LinkTallies | undefined {
  return db ? attached.get(db) : undefined;
}

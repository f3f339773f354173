import { type Database, isSharded, schema } from '@crm/db';
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Actor } from '../shared/actor.ts';
import { decodeCursor, encodeCursor, feedCursor } from '../shared/cursor.ts';
import { invalid } from '../shared/errors.ts';
import { eventTypes } from '../shared/events.ts';
import { missing } from '../shared/missing.ts';
import { TEST_EVENT_TYPE } from '../webhooks/send-test-event.ts';
import { DEFAULT_FEED_LIMIT, type findEventsInput } from './schemas.ts';

/**
 * Events older than this are never listed, whether or not pruned yet (docs/webhooks.md, "The
 * event feed").
 */
export const EVENT_RETENTION_DAYS = 30;
/** An event is listed once it is this old, so clock skew between servers cannot reorder the feed. */
export const FEED_SETTLE_SECONDS = 5;

/**
 * The event feed: the workspace's events oldest first, keyset-paged on (occurredAt, id), the
 * stored payloads as webhook receivers get them. Test events of `POST /webhooks/{id}/test`
 * belong to one subscription and are not listed.
 *
 * A poller must never skip an event, yet `occurredAt` is set before the writing transaction
 * commits, so a later-committing event can carry an earlier time than one already listed.
 * The feed therefore lists only events that can no longer be overtaken: older than
 * FEED_SETTLE_SECONDS and older than the start of every transaction of this database that is
 * still writing. Events appear once committed and settled, usually within seconds.
 */
export interface FeedOptions {
  /**
   * How old an event must be to be listed: FEED_SETTLE_SECONDS unless given. A test passes 0
   * to watch the other bound, the start of the transactions still writing, at work without
   * waiting seconds for the first bound to pass.
   */
  settleSeconds?: number;
}

export async function findEvents(
  db: Database,
  actor: Actor,
  input: z.infer<typeof findEventsInput>,
  options: FeedOptions = {},
) {
  const settleSeconds = options.settleSeconds ?? FEED_SETTLE_SECONDS;
  if (input.limit !== undefined && input.pageSize !== undefined && input.limit !== input.pageSize) {
    throw invalid('limit', 'is another name for pageSize; give one of them');
  }
  const limit = input.pageSize ?? input.limit ?? DEFAULT_FEED_LIMIT;
  const types = parseTypes(input.types);
  const after = input.after === undefined ? null : decodeCursor(input.after, feedCursor);
  const e = schema.events;
  const settledBefore = (await isSharded(db))
    ? sql`${await shardedSettledBefore(db, settleSeconds)}::timestamptz`
    : sql`least(
    now() - make_interval(secs => ${settleSeconds}),
    (select min(xact_start) - interval '1 second' from pg_stat_activity
      where datname = current_database() and backend_xid is not null and pid <> pg_backend_pid()))`;
  const rows = await db
    .select({ id: e.id, type: e.type, occurredAt: e.occurredAt, payload: e.payload })
    .from(e)
    .where(
      and(
        eq(e.workspaceId, actor.workspaceId),
        sql`${e.occurredAt} > now() - make_interval(days => ${EVENT_RETENTION_DAYS})`,
        sql`${e.occurredAt} < ${settledBefore}`,
        types ? inArray(e.type, types) : ne(e.type, TEST_EVENT_TYPE),
        after ? sql`(${e.occurredAt}, ${e.id}) > (${after.occurredAt}::timestamptz, ${after.id})` : undefined,
        // A key limited to folders sees the events of their records, and those about no record
        // (docs/api.md, "Scopes"); a deal's or task's event names its linked record's folder.
        actor.folderIds === null
          ? undefined
          : sql`(${e.payload} ->> 'folderId' is null or ${e.payload} ->> 'folderId' in ${[...actor.folderIds]})`,
      ),
    )
    .orderBy(asc(e.occurredAt), asc(e.id))
    .limit(limit + 1);
  const hasMore = rows.length > limit;
  const data = rows.slice(0, limit).map((row) => ({
    id: row.id,
    type: row.type,
    occurredAt: row.occurredAt.toISOString(),
    payload: row.payload,
  }));
  const last = data[data.length - 1];
  return {
    data,
    // The meta of every list (docs/api.md, "Paging"); the feed pages by cursor only, so `page`
    // is null.
    meta: {
      page: null,
      pageSize: limit,
      hasMore,
      nextCursor: last
        ? encodeCursor({ occurredAt: last.occurredAt, id: last.id }, feedCursor)
        : (input.after ?? null),
      // Set by the REST layer from the request's URL (docs/api.md, "Paging").
      nextUrl: null as string | null,
    },
  };
}

/**
 * The feed's bound on a sharded database, read on the coordinator before the routed query.
 * The events are written on the worker nodes, whose transactions the coordinator's snapshot
 * does not show, but every write reaches them through a transaction of the coordinator, and
 * that transaction stays open (in `pg_stat_activity`, from its BEGIN) until the workers have
 * committed. So the bound is the start of every open transaction of the coordinator's
 * clients: whether it has written yet is not known there, so read-only ones count too
 * (docs/scaling.md, "The event feed").
 */
async function shardedSettledBefore(db: Database, settleSeconds: number): Promise<string> {
  const { rows } = await db.execute<{ before: string }>(sql`
    select least(
      now() - make_interval(secs => ${settleSeconds}),
      (select min(xact_start) - interval '1 second' from pg_stat_activity
        where datname = current_database() and backend_type = 'client backend' and xact_start is not null
          and pid <> pg_backend_pid()))::text as before`);
  return (rows[0] ?? missing('rows[0]')).before;
}

/** `types=a,b`: known kinds only (400 naming the unknown one); empty or `*` means all. */
function parseTypes(value: string | undefined): string[] | null {
  const names = (value ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (names.length === 0 || names.includes('*')) return null;
  for (const name of names) {
    if (!(eventTypes as readonly string[]).includes(name)) {
      throw invalid('types', `"${name}" is not an event kind; kinds: ${eventTypes.join(', ')}`);
    }
  }
  return [...new Set(names)];
}

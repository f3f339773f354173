import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { foreignKey, index, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { bytea, createdAt, instant, updatedAt, workspaceId } from './columns.ts';
import { folders } from './folders.ts';
import { users } from './users.ts';

export const records = pgTable(
  'records',
  {
    workspaceId: workspaceId(),
    id: text().notNull(),
    folderId: text().notNull(),
    title: text().notNull(),
    email: text(),
    phone: text(),
    data: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    ownerId: text().references(() => users.id, { onDelete: 'set null' }),
    /**
     * Title, email, phone and TEXT custom values joined by newlines, written by the
     * domain on every change. The `q` search is a substring match on it through a trigram index.
     */
    searchText: text().notNull().default(''),
    /**
     * `search_text` lowered as ILIKE lowers it, or null when that text is over 600 bytes: held by
     * the newest-first indexes (INCLUDE, migration 0020), so that a `q` search can walk the list
     * in its order reading the index alone (docs/performance.md, "Search").
     */
    searchLower: text().generatedAlwaysAs(
      sql`case when octet_length(search_text) <= 600 then lower(search_text) end`,
    ),
    /**
     * For a record whose `search_lower` is null (its search text is long): which three-letter
     * pieces its search text holds, 2,048 bits, each piece setting one
     * (packages/domain/src/shared/search-signature.ts). Held by the same indexes as
     * `search_lower`, so that a `q` search's walk skips most long texts that cannot match
     * without reading them. Null when not known: written with the text by the domain, set to
     * null by a trigger when the text changes without it (migration 0028), filled again by
     * the worker (`sign_search_texts`).
     */
    searchSignature: bytea(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    trashedAt: instant(),
  },
  (t) => [
    primaryKey({ name: 'records_pkey', columns: [t.workspaceId, t.id] }),
    // A record can only sit in a folder of its own workspace.
    foreignKey({
      name: 'records_folder_fk',
      columns: [t.workspaceId, t.folderId],
      foreignColumns: [folders.workspaceId, folders.id],
    }).onDelete('cascade'),
    // The indexes of the orders a `q` search walks (newest first, by update, by title) also
    // hold `search_lower` and `search_signature`, and those without `folder_id` as a key hold
    // it too (INCLUDE, which this schema cannot state: migrations 0020, 0023 and 0028 make
    // them so), so that the walk reads the index alone (docs/performance.md, "Search").
    index('records_live_created_idx')
      .on(t.workspaceId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.trashedAt} is null`),
    index('records_live_folder_created_idx')
      .on(t.workspaceId, t.folderId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.trashedAt} is null`),
    index('records_trash_idx').on(t.workspaceId, t.trashedAt).where(sql`${t.trashedAt} is not null`),
    // Polling newest change first (`sort=-updatedAt&updatedSince=…`) and the catch-up walk
    // (`sort=updatedAt`), read in either direction.
    index('records_live_updated_idx')
      .on(t.workspaceId, t.updatedAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.trashedAt} is null`),
    index('records_live_title_idx').on(t.workspaceId, t.title, t.id).where(sql`${t.trashedAt} is null`),
    // The index every custom field of type SELECT, NUMBER, DATE or BOOLEAN gets when its key
    // first appears (packages/domain/src/folders/field-indexes.ts), made here for the key of the
    // field every workspace starts with. The statistics on each such key's value
    // (records_data_<key>_stats), which the planner needs to estimate a filter on it, are not
    // expressible here: migration 0008 makes them for the keys indexed before it.
    index('records_data_lifecycle_idx')
      .on(
        t.workspaceId,
        sql`(${t.data} -> 'lifecycle')`,
        t.createdAt.desc().nullsFirst(),
        t.id.desc().nullsFirst(),
      )
      .where(sql`${t.trashedAt} is null and ${t.data} ? 'lifecycle'`),
    // The order of the TEXT field every workspace starts with, and where its long values are
    // (packages/domain/src/folders/field-indexes.ts makes the same for every TEXT, EMAIL and
    // URL key when it first appears): a list sorted by it walks the first.
    index('records_text_company_idx')
      .on(t.workspaceId, sql`(${t.data} -> 'company')`, t.id)
      .where(
        sql`${t.trashedAt} is null and ${t.data} ? 'company' and coalesce(octet_length(${t.data} ->> 'company'), 0) <= 512`,
      ),
    index('records_text_company_long_idx')
      .on(t.workspaceId)
      .where(
        sql`${t.trashedAt} is null and ${t.data} ? 'company' and octet_length(${t.data} ->> 'company') > 512`,
      ),
    index('records_live_email_idx')
      .on(t.workspaceId, t.folderId, sql`lower(${t.email})`)
      .where(sql`${t.trashedAt} is null and ${t.email} is not null`),
    // The records whose search text is not lower-cased yet (written by an earlier version):
    // the worker lowers them a batch at a time, and the search tests with ILIKE while there are
    // any (docs/performance.md, "Search"). Empty once they are done, so asking is free. Keyed
    // by the workspace as `searchWorkspace` writes it, which orders no other index: a query
    // that orders by it is answered from this index, never by reading the table.
    index('records_search_unlowered_idx')
      .on(searchWorkspace(t.workspaceId), t.id)
      .where(sql`${t.searchText} <> lower(${t.searchText})`),
    // The records with a long search text and no signature yet: the worker signs them a
    // batch at a time (`sign_search_texts`). Empty once they are done; keyed as
    // `records_search_unlowered_idx` is, for the same reason.
    index('records_search_unsigned_idx')
      .on(searchWorkspace(t.workspaceId), t.id)
      .where(sql`${t.searchLower} is null and ${t.searchSignature} is null`),
    // The trigram index of `q`, keyed by workspace and folder too: a search of one folder asks
    // it for that folder's matches alone, whatever the other folders hold. Both are keyed as
    // `searchWorkspace` and `searchFolder` write them, which no other index holds: a statement
    // that names them so is served by this index and no other (shared/text-walk.ts), and a
    // list's plain `folder_id = …` never is (migration 0030).
    index('records_search_idx').using(
      'gin',
      searchWorkspace(t.workspaceId),
      searchFolder(t.folderId),
      t.searchText.op('gin_trgm_ops'),
    ),
  ],
);

/**
 * The workspace as the trigram index `records_search_idx` keys it: `workspace_id || ''`, the
 * same text, which PostgreSQL can match to that index alone. A `q` search names the workspace
 * this way where it must read the trigram index rather than walk an order again (the rest of
 * the search, docs/performance.md, "Search"); a query must use this very expression.
 */
export function searchWorkspace(workspaceId: SQLWrapper): SQL {
  return sql`(${workspaceId} || '')`;
}

/**
 * The folder as the trigram index `records_search_idx` keys it: `folder_id || ''`, for the
 * same reason as `searchWorkspace`. Keyed plainly, the index answered a list's `folder_id = …`
 * too: PostgreSQL ANDed the folder's entries (every record of the folder) with a filter's
 * index, for a list of one folder with a filter that a few thousand records pass
 * (docs/performance.md, "Search", the log of 2026-11-29, with the figures).
 */
export function searchFolder(folderId: SQLWrapper): SQL {
  return sql`(${folderId} || '')`;
}

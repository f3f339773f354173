-- migrate: online
-- The trigram index of `q` keys the folder as it keys the workspace, `folder_id || ''`, which
-- no other index holds (docs/performance.md, "Search"). Keyed plainly, it also answered the
-- `folder_id = …` of every list of one folder: PostgreSQL ANDed all the folder's entries with a
-- filter's index, a read that narrowed little (docs/performance.md, "Search", the log of
-- 2026-11-29). A search of one folder names the
-- folder as the index keys it, and still asks it for that folder's matches alone.
-- Built beside the old index (CREATE INDEX CONCURRENTLY: reads and writes of `records` go on),
-- which is then dropped the same way; the new one takes its name (docs/operations.md,
-- "Upgrades without downtime"). Until then a search of one folder asks the index for the
-- workspace's matches and tests the folder on each (docs/operations.md, "Upgrade notes").
-- Then ANALYZE: PostgreSQL keeps statistics of an index's expressions, and a new index has
-- none until the table is analyzed; without them it took `(folder_id || '') = …` for a
-- fraction of a percent of the rows and read the folder's entries for any list of it that
-- names the folder so (a search with a filter took seconds). ANALYZE reads a sample of the
-- table and lets reads and writes go on.
DROP INDEX CONCURRENTLY IF EXISTS "records_search_keyed_idx";
--> statement-breakpoint
CREATE INDEX CONCURRENTLY "records_search_keyed_idx" ON "records" USING gin (("workspace_id" || ''),("folder_id" || ''),"search_text" gin_trgm_ops);
--> statement-breakpoint
DROP INDEX CONCURRENTLY IF EXISTS "records_search_idx";
--> statement-breakpoint
ALTER INDEX "records_search_keyed_idx" RENAME TO "records_search_idx";
--> statement-breakpoint
ANALYZE "records";

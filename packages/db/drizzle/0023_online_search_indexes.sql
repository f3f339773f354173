-- migrate: online
-- The `q` search's indexes (docs/performance.md, "Search"), rebuilt without stopping the
-- service: each new index is built beside the old one with CREATE INDEX CONCURRENTLY (reads
-- and writes of `records` go on meanwhile), then the old one is dropped the same way and the
-- new one takes its name (docs/operations.md, "Upgrades without downtime").
-- - The trigram index is keyed by workspace (written `workspace_id || ''`, which no other
--   index holds) and folder, instead of by workspace and period of creation: a search of one
--   folder asks it for that folder's matches alone.
-- - The indexes of the orders by update and by title hold `folder_id` and `search_lower` too,
--   so that a search in those orders walks the index alone, as it does newest first.
DROP INDEX CONCURRENTLY IF EXISTS "records_search_folder_idx";
--> statement-breakpoint
CREATE INDEX CONCURRENTLY "records_search_folder_idx" ON "records" USING gin (("workspace_id" || ''),"folder_id","search_text" gin_trgm_ops);
--> statement-breakpoint
DROP INDEX CONCURRENTLY IF EXISTS "records_search_idx";
--> statement-breakpoint
ALTER INDEX "records_search_folder_idx" RENAME TO "records_search_idx";
--> statement-breakpoint
DROP INDEX CONCURRENTLY IF EXISTS "records_live_updated_walk_idx";
--> statement-breakpoint
CREATE INDEX CONCURRENTLY "records_live_updated_walk_idx" ON "records" USING btree ("workspace_id","updated_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) INCLUDE ("folder_id","search_lower") WHERE "records"."trashed_at" is null;
--> statement-breakpoint
DROP INDEX CONCURRENTLY IF EXISTS "records_live_updated_idx";
--> statement-breakpoint
ALTER INDEX "records_live_updated_walk_idx" RENAME TO "records_live_updated_idx";
--> statement-breakpoint
DROP INDEX CONCURRENTLY IF EXISTS "records_live_title_walk_idx";
--> statement-breakpoint
CREATE INDEX CONCURRENTLY "records_live_title_walk_idx" ON "records" USING btree ("workspace_id","title","id") INCLUDE ("folder_id","search_lower") WHERE "records"."trashed_at" is null;
--> statement-breakpoint
DROP INDEX CONCURRENTLY IF EXISTS "records_live_title_idx";
--> statement-breakpoint
ALTER INDEX "records_live_title_walk_idx" RENAME TO "records_live_title_idx";

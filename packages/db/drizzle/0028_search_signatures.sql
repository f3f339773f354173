-- migrate: online
-- A signature of each long search text, held by the indexes a `q` search walks, so that the
-- walk tests a record whose text is too long for `search_lower` (over 600 bytes) on the index
-- instead of reading it (docs/performance.md, "Search"). Nothing is rewritten:
-- - the column is added empty (an instant's lock, waited for one second at most);
-- - a trigger sets it to null when a statement changes a record's text without it (an
--   earlier version during a rolling upgrade, a folder's fields changed in SQL): a signature
--   is never older than its text. A sharded database runs it on every shard
--   (docs/scaling.md);
-- - the four walk indexes are built again with the column, each beside the old one
--   (CREATE INDEX CONCURRENTLY), then take its name;
-- - autovacuum goes over `records` after 2 % of its rows changed or were added, instead of
--   PostgreSQL's 20 %: a walk reads an index alone only on pages VACUUM marked all-visible,
--   and 20 % of a table of millions is hundreds of thousands of changes (a storage parameter:
--   a lock that lets reads and writes go on);
-- - the worker signs the records written before, a batch at a time (`sign_search_texts`,
--   through `records_search_unsigned_idx`). Until it is done a search reads those records
--   as before (docs/operations.md, "Upgrade notes").
SET lock_timeout = '1s';
--> statement-breakpoint
ALTER TABLE "records" ADD COLUMN IF NOT EXISTS "search_signature" bytea;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "records_signature_cleared"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_signature := NULL;
  RETURN NEW;
END
$$;
--> statement-breakpoint
SET citus.enable_unsafe_triggers = on;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "records_signature_cleared" BEFORE UPDATE OF "search_text" ON "records"
  FOR EACH ROW
  WHEN (NEW.search_text IS DISTINCT FROM OLD.search_text AND NEW.search_signature IS NOT DISTINCT FROM OLD.search_signature)
  EXECUTE FUNCTION "records_signature_cleared"();
--> statement-breakpoint
RESET citus.enable_unsafe_triggers;
--> statement-breakpoint
ALTER TABLE "records" SET (autovacuum_vacuum_scale_factor = 0.02, autovacuum_vacuum_insert_scale_factor = 0.02);
--> statement-breakpoint
RESET lock_timeout;
--> statement-breakpoint
DROP INDEX CONCURRENTLY IF EXISTS "records_live_created_walk_idx";
--> statement-breakpoint
CREATE INDEX CONCURRENTLY "records_live_created_walk_idx" ON "records" USING btree ("workspace_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) INCLUDE ("search_lower","search_signature") WHERE "records"."trashed_at" is null;
--> statement-breakpoint
DROP INDEX CONCURRENTLY IF EXISTS "records_live_created_idx";
--> statement-breakpoint
ALTER INDEX "records_live_created_walk_idx" RENAME TO "records_live_created_idx";
--> statement-breakpoint
DROP INDEX CONCURRENTLY IF EXISTS "records_live_folder_created_walk_idx";
--> statement-breakpoint
CREATE INDEX CONCURRENTLY "records_live_folder_created_walk_idx" ON "records" USING btree ("workspace_id","folder_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) INCLUDE ("search_lower","search_signature") WHERE "records"."trashed_at" is null;
--> statement-breakpoint
DROP INDEX CONCURRENTLY IF EXISTS "records_live_folder_created_idx";
--> statement-breakpoint
ALTER INDEX "records_live_folder_created_walk_idx" RENAME TO "records_live_folder_created_idx";
--> statement-breakpoint
DROP INDEX CONCURRENTLY IF EXISTS "records_live_updated_walk_idx";
--> statement-breakpoint
CREATE INDEX CONCURRENTLY "records_live_updated_walk_idx" ON "records" USING btree ("workspace_id","updated_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) INCLUDE ("folder_id","search_lower","search_signature") WHERE "records"."trashed_at" is null;
--> statement-breakpoint
DROP INDEX CONCURRENTLY IF EXISTS "records_live_updated_idx";
--> statement-breakpoint
ALTER INDEX "records_live_updated_walk_idx" RENAME TO "records_live_updated_idx";
--> statement-breakpoint
DROP INDEX CONCURRENTLY IF EXISTS "records_live_title_walk_idx";
--> statement-breakpoint
CREATE INDEX CONCURRENTLY "records_live_title_walk_idx" ON "records" USING btree ("workspace_id","title","id") INCLUDE ("folder_id","search_lower","search_signature") WHERE "records"."trashed_at" is null;
--> statement-breakpoint
DROP INDEX CONCURRENTLY IF EXISTS "records_live_title_idx";
--> statement-breakpoint
ALTER INDEX "records_live_title_walk_idx" RENAME TO "records_live_title_idx";
--> statement-breakpoint
DROP INDEX CONCURRENTLY IF EXISTS "records_search_unsigned_idx";
--> statement-breakpoint
CREATE INDEX CONCURRENTLY "records_search_unsigned_idx" ON "records" USING btree (("workspace_id" || ''),"id") WHERE "records"."search_lower" is null and "records"."search_signature" is null;

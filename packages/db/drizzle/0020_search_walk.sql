-- The `q` search walks a list in its order through the index that serves that order, and tests
-- each row on the index alone (docs/performance.md, "Search"): `search_lower` is the record's
-- search text lowered as ILIKE lowers it (null when over 600 bytes, so that an index row stays
-- well under PostgreSQL's size limit; such rows are tested against the table), and the two
-- newest-first indexes hold it. Adding a stored generated column rewrites `records` once: about
-- a minute a million records on two cores (docs/operations.md, "Start, stop, migrate").
ALTER TABLE "records" ADD COLUMN "search_lower" text GENERATED ALWAYS AS (case when octet_length(search_text) <= 600 then lower(search_text) end) STORED;
--> statement-breakpoint
DROP INDEX "records_live_created_idx";
--> statement-breakpoint
CREATE INDEX "records_live_created_idx" ON "records" USING btree ("workspace_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) INCLUDE ("search_lower") WHERE "records"."trashed_at" is null;
--> statement-breakpoint
DROP INDEX "records_live_folder_created_idx";
--> statement-breakpoint
CREATE INDEX "records_live_folder_created_idx" ON "records" USING btree ("workspace_id","folder_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) INCLUDE ("search_lower") WHERE "records"."trashed_at" is null;

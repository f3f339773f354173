-- migrate: online
-- `search_text` is kept lower-cased from now on, and whole in the table's pages, so that the
-- `q` search tests a record with LIKE against it as it is (docs/performance.md, "Search").
-- ILIKE lower-cased every text it tested: most of the cost of testing a record with 1 to 2 KB
-- of notes, and that text was compressed, or stored apart, and unpacked first.
-- - Rows of up to 4 KB stay uncompressed in the table's pages (toast_tuple_target; a lock
--   that lets reads and writes go on; it applies to rows written from now on).
-- - An index of the records whose search text is not lower-cased, built concurrently (7 s at
--   1,000,000 records): the worker writes them again a batch at a time after the start (the
--   `lower_search_texts` task), and the search tests with ILIKE while the index holds any.
--   Nothing waits for them (docs/operations.md, "Upgrade notes").
ALTER TABLE "records" SET (toast_tuple_target = 4096);
--> statement-breakpoint
DROP INDEX CONCURRENTLY IF EXISTS "records_search_unlowered_idx";
--> statement-breakpoint
CREATE INDEX CONCURRENTLY "records_search_unlowered_idx" ON "records" USING btree (("workspace_id" || ''),"id") WHERE "records"."search_text" <> lower("records"."search_text");

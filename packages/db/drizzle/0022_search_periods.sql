-- The `q` search's trigram index holds each record's period of creation too: its 16 days (UTC),
-- as whole periods since 1970. A search that has not filled its page from the newest records
-- asks the index for that period's matches before all that is older (docs/performance.md,
-- "Search"). The new index is built beside the old one (about 30 s a million records on two
-- cores, while writes to `records` wait and reads go on), then takes its name.
CREATE INDEX "records_search_periods_idx" ON "records" USING gin ("workspace_id",(floor(date_part('epoch', ("created_at" at time zone 'UTC')) / 1382400)::integer),"search_text" gin_trgm_ops);--> statement-breakpoint
DROP INDEX "records_search_idx";--> statement-breakpoint
ALTER INDEX "records_search_periods_idx" RENAME TO "records_search_idx";

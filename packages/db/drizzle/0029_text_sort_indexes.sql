-- migrate: online
-- The order of the short values of the TEXT field every workspace starts with (`company`), and
-- where its long values are, so that a list sorted by it reads its records in order instead of
-- sorting every one (docs/performance.md, "Sorted by a TEXT field"). Both are built beside the
-- table's use (CREATE INDEX CONCURRENTLY). The other TEXT, EMAIL and URL keys of the database
-- get the same two indexes from the worker (`make_field_indexes`), one key at a time, also
-- built concurrently; until a key has them its lists are sorted as before
-- (docs/operations.md, "Upgrade notes"). An index a failed run left invalid is dropped first.
DROP INDEX CONCURRENTLY IF EXISTS "records_text_company_idx";
--> statement-breakpoint
CREATE INDEX CONCURRENTLY "records_text_company_idx" ON "records" USING btree ("workspace_id",("data" -> 'company'),"id") WHERE "records"."trashed_at" is null and "records"."data" ? 'company' and coalesce(octet_length("records"."data" ->> 'company'), 0) <= 512;
--> statement-breakpoint
DROP INDEX CONCURRENTLY IF EXISTS "records_text_company_long_idx";
--> statement-breakpoint
CREATE INDEX CONCURRENTLY "records_text_company_long_idx" ON "records" USING btree ("workspace_id") WHERE "records"."trashed_at" is null and "records"."data" ? 'company' and octet_length("records"."data" ->> 'company') > 512;

-- How many links a record holds through a MANY field is counted before each new link (at most
-- 10,000, docs/api.md, "Relations"). One key per record and side: PostgreSQL keeps each key
-- once with the list of its rows, so a count reads a twentieth of the index pages that
-- record_links_pkey and record_links_to_idx, whose every entry is distinct, would.
CREATE INDEX "record_links_from_count_idx" ON "record_links" USING btree ("workspace_id","relation_id","from_id");--> statement-breakpoint
CREATE INDEX "record_links_to_count_idx" ON "record_links" USING btree ("workspace_id","relation_id","to_id");
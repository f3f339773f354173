-- How many links a record holds through a MANY field is counted before each new link (at most
-- 10,000, docs/api.md, "Relations"). One key per record of the `to` side, where thousands of
-- links gather: PostgreSQL keeps each key once with the list of its rows, so a count reads a
-- twentieth of the index pages that record_links_to_idx, whose every entry is distinct, would.
CREATE INDEX "record_links_to_count_idx" ON "record_links" USING btree ("workspace_id","relation_id","to_id");
-- Counts of a record's links on the `to` side are made on record_links_to_idx (index-only), and
-- most batches of links count no side at all (the process keeps tallies, docs/performance.md,
-- "Links in a batch"): the index kept for counts alone cost one more index entry in every link.
DROP INDEX "record_links_to_count_idx";

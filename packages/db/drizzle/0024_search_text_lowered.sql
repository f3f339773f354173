-- migrate: online
-- `search_text` is kept lower-cased, and whole in the table's pages, so that the `q` search
-- tests a record with LIKE against it as it is (docs/performance.md, "Search"). ILIKE
-- lower-cased every text it tested: most of the cost of testing a record with 1 to 2 KB of
-- notes, and that text was compressed, or stored apart, and unpacked first.
-- - Rows of up to 4 KB stay uncompressed in the table's pages (toast_tuple_target; it takes
--   a lock that lets reads and writes go on, and applies to rows written from now on).
-- - Then every record whose search text is not lower-cased yet, or is compressed, is
--   written again, a thousand at a time in the order of the primary key, each thousand
--   committed before the next: reads and writes of `records` go on meanwhile. Run again
--   (`pnpm cli -- migrate --again 0024_search_text_lowered`), it writes only the records
--   that processes of an earlier version wrote since (docs/operations.md, "Upgrade notes").
ALTER TABLE "records" SET (toast_tuple_target = 4096);
--> statement-breakpoint
DO $$
DECLARE
  last_workspace text := '';
  last_id text := '';
BEGIN
  LOOP
    WITH batch AS (
      SELECT workspace_id, id FROM "records"
       WHERE (workspace_id, id) > (last_workspace, last_id)
       ORDER BY workspace_id, id
       LIMIT 1000
    ), written AS (
      UPDATE "records" r SET search_text = lower(r.search_text)
        FROM batch b
       WHERE r.workspace_id = b.workspace_id AND r.id = b.id
         AND (r.search_text <> lower(r.search_text) OR pg_column_compression(r.search_text) IS NOT NULL)
    )
    SELECT workspace_id, id INTO last_workspace, last_id
      FROM batch ORDER BY workspace_id DESC, id DESC LIMIT 1;
    EXIT WHEN NOT FOUND;
    COMMIT;
  END LOOP;
END $$;

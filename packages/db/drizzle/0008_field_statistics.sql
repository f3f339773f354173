-- Statistics on the value of each indexed custom field (records_data_<key>_idx: `lifecycle`
-- from 0007 and the keys indexed since by packages/domain/src/folders/field-indexes.ts), named
-- as fieldStatisticsName names them. PostgreSQL does not use the statistics of a partial
-- index's expression; without these it takes a filter on the value to match a fraction of a
-- percent of the rows, and reads a common value's every row through the field's index instead
-- of walking the newest rows until a page is full. ANALYZE fills them.
DO $$
DECLARE
  field_key text;
  stats_name text;
BEGIN
  FOR field_key IN
    SELECT substring(pg_get_indexdef(i.indexrelid) FROM '\(data -> ''([A-Za-z][A-Za-z0-9_]*)''::text\)')
    FROM pg_index i
    JOIN pg_class c ON c.oid = i.indexrelid
    WHERE i.indrelid = 'records'::regclass AND i.indisvalid AND c.relname LIKE 'records\_data\_%'
  LOOP
    CONTINUE WHEN field_key IS NULL;
    stats_name := 'records_data_' || field_key || '_stats';
    IF length(stats_name) > 63 THEN
      stats_name := 'records_data_' || left(field_key, 32) || '_'
        || left(encode(sha256(convert_to(field_key, 'UTF8')), 'hex'), 8) || '_stats';
    END IF;
    EXECUTE format('CREATE STATISTICS IF NOT EXISTS %I ON (data -> %L) FROM records', stats_name, field_key);
  END LOOP;
END $$;

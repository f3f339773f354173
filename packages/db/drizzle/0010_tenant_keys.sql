-- Every tenant table's primary key leads with workspace_id, so the schema can be sharded by
-- workspace (docs/scaling.md). Tables whose key was `id` alone get (workspace_id, id); the
-- unique (workspace_id, id) constraints that foreign keys pointed at are folded into that key.
-- The foreign keys are dropped and made again with the same names and rules; rows are kept.
DO $$
DECLARE
  tenant text;
  fk record;
  kept jsonb := '[]'::jsonb;
BEGIN
  FOREACH tenant IN ARRAY ARRAY[
    'folders', 'records', 'comments', 'call_logs', 'pipelines', 'stages', 'deals', 'tasks',
    'webhooks', 'deliveries', 'delivery_attempts', 'events', 'workflows', 'workflow_runs'
  ] LOOP
    -- Foreign keys that point at this table's unique (workspace_id, id).
    FOR fk IN
      SELECT con.conname, con.conrelid::regclass AS source, pg_get_constraintdef(con.oid) AS definition
        FROM pg_constraint con
       WHERE con.contype = 'f' AND con.confrelid = tenant::regclass
         AND con.conindid = (SELECT conindid FROM pg_constraint
                              WHERE conrelid = tenant::regclass AND conname = tenant || '_workspace_id_key')
    LOOP
      kept := kept || jsonb_build_object('name', fk.conname, 'source', fk.source::text, 'definition', fk.definition);
      EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', fk.source, fk.conname);
    END LOOP;
    EXECUTE format('ALTER TABLE %I DROP CONSTRAINT IF EXISTS %I', tenant, tenant || '_workspace_id_key');
    EXECUTE format('ALTER TABLE %I DROP CONSTRAINT %I', tenant, tenant || '_pkey');
    EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I PRIMARY KEY (workspace_id, id)', tenant, tenant || '_pkey');
  END LOOP;
  FOR fk IN SELECT * FROM jsonb_to_recordset(kept) AS k(name text, source text, definition text) LOOP
    EXECUTE format('ALTER TABLE %s ADD CONSTRAINT %I %s', fk.source, fk.name, fk.definition);
  END LOOP;
END $$;
--> statement-breakpoint
-- A trigger URL names its workflow alone, so that lookup has an index of its own.
CREATE INDEX "workflows_trigger_idx" ON "workflows" USING btree ("id") WHERE "workflows"."trigger_type" = 'INCOMING_WEBHOOK';

-- A record's timeline shows the links made and removed on either side (docs/api.md, "Record
-- timeline"): link events name the linked record as `to`, which this index finds.
CREATE INDEX "events_link_to_idx" ON "events" USING btree ("workspace_id",("payload" ->> 'to'),"occurred_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "events"."type" in ('record.linked', 'record.unlinked');
-- A record's timeline (docs/api.md, "Record timeline") reads the events about one record and
-- the automation runs started for it or whose context record it became, newest first. Each
-- index leads with the workspace and holds only the rows that name a record.
CREATE INDEX "events_record_idx" ON "events" USING btree ("workspace_id",("payload" ->> 'recordId'),"occurred_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE ("events"."payload" ->> 'recordId') is not null;--> statement-breakpoint
CREATE INDEX "workflow_runs_record_idx" ON "workflow_runs" USING btree ("workspace_id","record_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "workflow_runs"."record_id" is not null;--> statement-breakpoint
CREATE INDEX "workflow_runs_context_record_idx" ON "workflow_runs" USING btree ("workspace_id","context_record_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "workflow_runs"."context_record_id" is not null;

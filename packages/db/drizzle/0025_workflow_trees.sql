-- migrate: online
-- Automations beyond a straight line (docs/workflows.md): steps kept one row each, by path;
-- runs that wait (resume_at); schedules (schedule, next_run_at, last_scheduled_for); members
-- told of failures (notify_on_failure). New columns are nullable or have a constant default,
-- so adding them rewrites nothing; the index on workflow_runs is built concurrently.
CREATE TABLE IF NOT EXISTS "workflow_run_steps" (
	"workspace_id" text NOT NULL,
	"run_id" text NOT NULL,
	"path" text NOT NULL,
	"seq" integer NOT NULL,
	"name" text,
	"action" text NOT NULL,
	"status" text NOT NULL,
	"input" jsonb,
	"output" jsonb,
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp (3) with time zone,
	"resume_at" timestamp (3) with time zone,
	"started_at" timestamp (3) with time zone,
	"finished_at" timestamp (3) with time zone,
	CONSTRAINT "workflow_run_steps_pkey" PRIMARY KEY("workspace_id","run_id","path"),
	CONSTRAINT "workflow_run_steps_run_fk" FOREIGN KEY ("workspace_id","run_id") REFERENCES "public"."workflow_runs"("workspace_id","id") ON DELETE cascade ON UPDATE no action
);
--> statement-breakpoint
ALTER TABLE "workflow_runs" ADD COLUMN IF NOT EXISTS "resume_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "workflows" ADD COLUMN IF NOT EXISTS "schedule" jsonb;--> statement-breakpoint
ALTER TABLE "workflows" ADD COLUMN IF NOT EXISTS "next_run_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "workflows" ADD COLUMN IF NOT EXISTS "last_scheduled_for" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "workflows" ADD COLUMN IF NOT EXISTS "notify_on_failure" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
DROP INDEX CONCURRENTLY IF EXISTS "workflow_runs_waiting_idx";--> statement-breakpoint
CREATE INDEX CONCURRENTLY "workflow_runs_waiting_idx" ON "workflow_runs" USING btree ("workspace_id") WHERE "workflow_runs"."status" = 'WAITING';--> statement-breakpoint
DROP INDEX CONCURRENTLY IF EXISTS "workflows_next_run_idx";--> statement-breakpoint
CREATE INDEX CONCURRENTLY "workflows_next_run_idx" ON "workflows" USING btree ("next_run_at") WHERE "workflows"."next_run_at" is not null;

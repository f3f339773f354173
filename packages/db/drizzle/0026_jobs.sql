-- Jobs the service runs itself: imports, exports and changes to every record a filter matches
-- (docs/jobs.md). Two new tables, nothing else touched: the migration takes no lock on a table
-- that exists.
CREATE TABLE "job_files" (
	"workspace_id" text NOT NULL,
	"job_id" text NOT NULL,
	"kind" text NOT NULL,
	"part" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	CONSTRAINT "job_files_pkey" PRIMARY KEY("workspace_id","job_id","kind","part")
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"workspace_id" text NOT NULL,
	"id" text NOT NULL,
	"type" text NOT NULL,
	"status" text NOT NULL,
	"params" jsonb NOT NULL,
	"actor" jsonb NOT NULL,
	"request_id" text,
	"file" jsonb,
	"checkpoint" jsonb DEFAULT '{"row":0}'::jsonb NOT NULL,
	"rows_read" integer DEFAULT 0 NOT NULL,
	"created" integer DEFAULT 0 NOT NULL,
	"updated" integer DEFAULT 0 NOT NULL,
	"unchanged" integer DEFAULT 0 NOT NULL,
	"refused" integer DEFAULT 0 NOT NULL,
	"total" integer,
	"revert_of" text,
	"notify" boolean DEFAULT true NOT NULL,
	"error" jsonb,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp (3) with time zone,
	"finished_at" timestamp (3) with time zone,
	"expires_at" timestamp (3) with time zone,
	"leased_until" timestamp (3) with time zone,
	CONSTRAINT "jobs_pkey" PRIMARY KEY("workspace_id","id")
);
--> statement-breakpoint
ALTER TABLE "job_files" ADD CONSTRAINT "job_files_job_fk" FOREIGN KEY ("workspace_id","job_id") REFERENCES "public"."jobs"("workspace_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "jobs_workspace_created_idx" ON "jobs" USING btree ("workspace_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "jobs_running_idx" ON "jobs" USING btree ("leased_until") WHERE "jobs"."status" = 'RUNNING';
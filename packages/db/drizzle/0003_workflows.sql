CREATE TABLE "workflow_runs" (
	"workspace_id" text NOT NULL,
	"id" text PRIMARY KEY NOT NULL,
	"workflow_id" text NOT NULL,
	"status" text DEFAULT 'QUEUED' NOT NULL,
	"trigger" text NOT NULL,
	"input" jsonb NOT NULL,
	"record_id" text,
	"context_record_id" text,
	"actions" jsonb NOT NULL,
	"steps" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"next_step" integer DEFAULT 0 NOT NULL,
	"error" text,
	"rerun_of" text,
	"event_id" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp (3) with time zone,
	"finished_at" timestamp (3) with time zone,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workflow_runs_workspace_id_key" UNIQUE("workspace_id","id")
);
--> statement-breakpoint
CREATE TABLE "workflows" (
	"workspace_id" text NOT NULL,
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"trigger_type" text NOT NULL,
	"actions" jsonb NOT NULL,
	"secret" text,
	"previous_secret" text,
	"previous_secret_expires_at" timestamp (3) with time zone,
	"rate_limit_per_minute" integer DEFAULT 600 NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workflows_workspace_id_key" UNIQUE("workspace_id","id")
);
--> statement-breakpoint
ALTER TABLE "workflow_runs" ADD CONSTRAINT "workflow_runs_workflow_fk" FOREIGN KEY ("workspace_id","workflow_id") REFERENCES "public"."workflows"("workspace_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflows" ADD CONSTRAINT "workflows_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "workflow_runs_workflow_created_idx" ON "workflow_runs" USING btree ("workspace_id","workflow_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "workflow_runs_created_idx" ON "workflow_runs" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "workflow_runs_event_idx" ON "workflow_runs" USING btree ("workspace_id","workflow_id","event_id") WHERE "workflow_runs"."event_id" is not null;--> statement-breakpoint
CREATE INDEX "workflows_workspace_created_idx" ON "workflows" USING btree ("workspace_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "workflows_event_trigger_idx" ON "workflows" USING btree ("workspace_id","trigger_type") WHERE "workflows"."enabled" and "workflows"."trigger_type" <> 'INCOMING_WEBHOOK';
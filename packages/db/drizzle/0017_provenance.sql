-- Provenance, field history and the audit log (docs/api.md, "History and provenance",
-- "Audit log", "Scopes"): additive. Existing keys keep their scopes and reach every folder
-- (folder_ids null).
CREATE TABLE "audit_log" (
	"workspace_id" text NOT NULL,
	"id" text NOT NULL,
	"at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"action" text NOT NULL,
	"actor_type" text NOT NULL,
	"actor_id" text NOT NULL,
	"actor_name" text NOT NULL,
	"source" text NOT NULL,
	"request_id" text,
	"target_type" text,
	"target_id" text,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	CONSTRAINT "audit_log_pkey" PRIMARY KEY("workspace_id","id")
);
--> statement-breakpoint
CREATE TABLE "history" (
	"workspace_id" text NOT NULL,
	"subject_id" text NOT NULL,
	"id" text NOT NULL,
	"subject" text NOT NULL,
	"field" text NOT NULL,
	"from_value" jsonb,
	"to_value" jsonb,
	"actor_type" text NOT NULL,
	"actor_id" text NOT NULL,
	"actor_name" text NOT NULL,
	"source" text NOT NULL,
	"request_id" text,
	"at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "history_pkey" PRIMARY KEY("workspace_id","subject_id","id")
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "folder_ids" text[];--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "history" ADD CONSTRAINT "history_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "audit_log" USING btree ("at");
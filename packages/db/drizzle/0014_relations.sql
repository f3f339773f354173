-- Relations between records (docs/api.md, "Relations"): links through RELATION fields, and the
-- records a deal or a task involves. Every table leads with the workspace, like the others.
CREATE TABLE "deal_links" (
	"workspace_id" text NOT NULL,
	"deal_id" text NOT NULL,
	"record_id" text NOT NULL,
	"label" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deal_links_pkey" PRIMARY KEY("workspace_id","deal_id","record_id")
);
--> statement-breakpoint
CREATE TABLE "record_links" (
	"workspace_id" text NOT NULL,
	"relation_id" text NOT NULL,
	"from_id" text NOT NULL,
	"to_id" text NOT NULL,
	"label" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "record_links_pkey" PRIMARY KEY("workspace_id","relation_id","from_id","to_id")
);
--> statement-breakpoint
CREATE TABLE "task_links" (
	"workspace_id" text NOT NULL,
	"task_id" text NOT NULL,
	"record_id" text NOT NULL,
	"label" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "task_links_pkey" PRIMARY KEY("workspace_id","task_id","record_id")
);
--> statement-breakpoint
ALTER TABLE "deal_links" ADD CONSTRAINT "deal_links_deal_fk" FOREIGN KEY ("workspace_id","deal_id") REFERENCES "public"."deals"("workspace_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deal_links" ADD CONSTRAINT "deal_links_record_fk" FOREIGN KEY ("workspace_id","record_id") REFERENCES "public"."records"("workspace_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "record_links" ADD CONSTRAINT "record_links_from_fk" FOREIGN KEY ("workspace_id","from_id") REFERENCES "public"."records"("workspace_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "record_links" ADD CONSTRAINT "record_links_to_fk" FOREIGN KEY ("workspace_id","to_id") REFERENCES "public"."records"("workspace_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_links" ADD CONSTRAINT "task_links_task_fk" FOREIGN KEY ("workspace_id","task_id") REFERENCES "public"."tasks"("workspace_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_links" ADD CONSTRAINT "task_links_record_fk" FOREIGN KEY ("workspace_id","record_id") REFERENCES "public"."records"("workspace_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deal_links_record_idx" ON "deal_links" USING btree ("workspace_id","record_id","deal_id");--> statement-breakpoint
CREATE INDEX "record_links_to_idx" ON "record_links" USING btree ("workspace_id","relation_id","to_id","from_id");--> statement-breakpoint
CREATE INDEX "task_links_record_idx" ON "task_links" USING btree ("workspace_id","record_id","task_id");--> statement-breakpoint
-- A deal's or task's record_id is its primary record and one of its links from now on.
INSERT INTO "deal_links" ("workspace_id", "deal_id", "record_id", "created_at")
  SELECT "workspace_id", "id", "record_id", "created_at" FROM "deals" WHERE "record_id" IS NOT NULL;--> statement-breakpoint
INSERT INTO "task_links" ("workspace_id", "task_id", "record_id", "created_at")
  SELECT "workspace_id", "id", "record_id", "created_at" FROM "tasks" WHERE "record_id" IS NOT NULL;

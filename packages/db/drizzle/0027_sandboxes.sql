-- Sandboxes (docs/operations.md, "Sandboxes"): a workspace made from another one's
-- configuration, whose webhooks and HTTP_REQUEST steps send only to the URLs it allows.
-- Two columns with constant defaults and an index on a table of a few rows per customer:
-- nothing is rewritten.
ALTER TABLE "workspaces" ADD COLUMN "sandbox_of" text;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "sandbox_allow" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
CREATE INDEX "workspaces_sandbox_of_idx" ON "workspaces" USING btree ("sandbox_of") WHERE "workspaces"."sandbox_of" is not null;
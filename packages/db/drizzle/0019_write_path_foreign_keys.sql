-- The write path's foreign keys go (docs/decisions/0006-no-foreign-keys-on-the-write-path.md):
-- events and history to workspaces (every change locked the one workspace row to check it),
-- and record_links to records (two checks a link; a purge of one record scanned every link of
-- the workspace to cascade). The domain keeps what they kept: a new link's ends are checked in
-- its transaction, and the purge deletes a record's links itself, by index.
ALTER TABLE "events" DROP CONSTRAINT "events_workspace_id_workspaces_id_fk";
--> statement-breakpoint
ALTER TABLE "history" DROP CONSTRAINT "history_workspace_id_workspaces_id_fk";
--> statement-breakpoint
ALTER TABLE "record_links" DROP CONSTRAINT "record_links_from_fk";
--> statement-breakpoint
ALTER TABLE "record_links" DROP CONSTRAINT "record_links_to_fk";

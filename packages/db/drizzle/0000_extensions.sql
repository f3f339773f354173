-- Trigram indexes serve the case-insensitive substring search on records (`q`);
-- btree_gin lets workspace_id lead that GIN index.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS btree_gin;

-- A user's saved views of a folder are found through saved_views_name_key, which leads with the
-- same three columns; the index on those three alone only cost writes.
DROP INDEX "saved_views_user_idx";
-- The batch statement that counts rate-limited requests (packages/domain/src/rate-limit) reads
-- back what its own write added, since another process may have written the row between the
-- statement's snapshot and its lock.
ALTER TABLE "rate_limit_buckets" ADD COLUMN "last_grant" integer DEFAULT 0 NOT NULL;
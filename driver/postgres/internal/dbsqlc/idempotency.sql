-- name: GetIdempotency :one
-- The writes under a key are buffered to the commit (queries/idempotency.sql);
-- the read runs at once.
SELECT fingerprint, status, body, created_at FROM idempotency WHERE key = @key;

-- name: PruneIdempotency :execrows
-- Deletes up to $2 expired requests, created at or before $1, oldest
-- first, skipping those a request is replacing.
DELETE FROM idempotency WHERE key = ANY(ARRAY(
    SELECT i.key FROM idempotency AS i WHERE i.created_at <= $1 ORDER BY i.created_at LIMIT $2 FOR UPDATE SKIP LOCKED));

-- name: GetIdempotency :one
-- The writes under a key are buffered to the commit (queries/idempotency.sql);
-- the read runs at once.
SELECT fingerprint, status, body, created_at FROM idempotency WHERE key = @key;

-- name: GetIdempotency :one
SELECT fingerprint, status, body, created_at FROM idempotency WHERE key = @key;

-- name: PutIdempotency :exec
INSERT INTO idempotency (key, fingerprint, status, body, created_at) VALUES (@key, @fingerprint, @status, @body, @created_at);

-- name: FinishIdempotency :exec
-- Stores the response of a request that was recorded as in flight.
UPDATE idempotency SET status = @status, body = @body WHERE key = @key;

-- name: ForgetIdempotency :exec
-- Deletes the request recorded under a key if it expired: created at or
-- before before.
DELETE FROM idempotency WHERE key = @key AND created_at <= @before;

-- name: PruneIdempotency :execrows
-- Deletes up to page_size expired requests, created at or before before,
-- oldest first.
DELETE FROM idempotency WHERE key IN (
    SELECT i.key FROM idempotency i WHERE i.created_at <= @before ORDER BY i.created_at LIMIT @page_size);

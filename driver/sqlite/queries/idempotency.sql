-- name: GetIdempotency
SELECT fingerprint, status, body, created_at FROM idempotency WHERE key = ?;

-- name: PutIdempotency
INSERT INTO idempotency (key, fingerprint, status, body, created_at) VALUES (?, ?, ?, ?, ?);

-- name: FinishIdempotency
-- Stores the response of a request that was recorded as in flight.
UPDATE idempotency SET status = ?2, body = ?3 WHERE key = ?1;

-- name: ForgetIdempotency
-- Deletes the request recorded under a key if it expired: created at or
-- before ?2.
DELETE FROM idempotency WHERE key = ?1 AND created_at <= ?2;

-- name: PruneIdempotency
-- Deletes up to ?2 expired requests, created at or before ?1, oldest
-- first.
DELETE FROM idempotency WHERE key IN (
    SELECT key FROM idempotency WHERE created_at <= ?1 ORDER BY created_at LIMIT ?2);

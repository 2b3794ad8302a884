-- name: GetIdempotency
SELECT fingerprint, status, body, created_at FROM idempotency WHERE `key` = ?;

-- name: PutIdempotency
INSERT INTO idempotency (`key`, fingerprint, status, body, created_at) VALUES (?, ?, ?, ?, ?);

-- name: FinishIdempotency
-- status, body, key: stores the response of a request that was recorded
-- as in flight.
UPDATE idempotency SET status = ?, body = ? WHERE `key` = ?;

-- name: ForgetIdempotency
-- key, before: deletes the request recorded under key if it expired:
-- created at or before before.
DELETE FROM idempotency WHERE `key` = ? AND created_at <= ?;

-- name: PruneIdempotency
-- before, limit: deletes up to limit expired requests, created at or
-- before before, oldest first.
DELETE FROM idempotency WHERE created_at <= ? ORDER BY created_at LIMIT ?;

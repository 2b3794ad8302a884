-- name: GetIdempotency
SELECT fingerprint, status, body, created_at FROM idempotency WHERE `key` = ?;

-- name: PutIdempotency
INSERT INTO idempotency (`key`, fingerprint, status, body, created_at) VALUES (?, ?, ?, ?, ?);

-- name: FinishIdempotency
-- status, body, key: stores the response of a request that was recorded
-- as in flight.
UPDATE idempotency SET status = ?, body = ? WHERE `key` = ?;

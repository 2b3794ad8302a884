-- name: GetIdempotency
SELECT fingerprint, status, body FROM idempotency WHERE `key` = ?;

-- name: PutIdempotency
INSERT INTO idempotency (`key`, fingerprint, status, body, created_at) VALUES (?, ?, ?, ?, ?);

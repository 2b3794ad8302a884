-- name: GetIdempotency :one
SELECT fingerprint, status, body, created_at FROM idempotency WHERE `key` = sqlc.arg(idem_key);

-- name: PutIdempotency :exec
INSERT INTO idempotency (`key`, fingerprint, status, body, created_at)
VALUES (sqlc.arg(idem_key), sqlc.arg(fingerprint), sqlc.arg(status), sqlc.arg(body), sqlc.arg(created_at));

-- name: FinishIdempotency :exec
-- Stores the response of a request that was recorded as in flight.
UPDATE idempotency SET status = sqlc.arg(status), body = sqlc.arg(body) WHERE `key` = sqlc.arg(idem_key);

-- name: ForgetIdempotency :exec
-- Deletes the request recorded under the key if it expired: created at or
-- before before.
DELETE FROM idempotency WHERE `key` = sqlc.arg(idem_key) AND created_at <= sqlc.arg(before);

-- name: PruneIdempotency :execrows
-- Deletes up to limit expired requests, created at or before before,
-- oldest first; LIMIT takes no sqlc.arg in the MySQL parser.
DELETE FROM idempotency WHERE created_at <= sqlc.arg(before) ORDER BY created_at LIMIT ?;

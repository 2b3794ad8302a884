-- name: PutIdempotency
-- A request with the same key still in flight makes this wait for its
-- commit, then fail on the primary key: ErrIdempotencyConflict.
INSERT INTO idempotency (key, fingerprint, status, body, created_at) VALUES ($1, $2, $3, $4, $5);

-- name: FinishIdempotency
-- Stores the response of a request that was recorded as in flight.
UPDATE idempotency SET status = $2, body = $3 WHERE key = $1;

-- name: ForgetIdempotency
-- Deletes the request recorded under a key if it expired: created at or
-- before $2.
DELETE FROM idempotency WHERE key = $1 AND created_at <= $2;

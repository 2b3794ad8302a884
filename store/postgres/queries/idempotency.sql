-- name: GetIdempotency
SELECT fingerprint, status, body FROM idempotency WHERE key = $1;

-- name: PutIdempotency
-- A request with the same key still in flight makes this wait for its
-- commit, then fail on the primary key: ErrIdempotencyConflict.
INSERT INTO idempotency (key, fingerprint, status, body, created_at) VALUES ($1, $2, $3, $4, $5);

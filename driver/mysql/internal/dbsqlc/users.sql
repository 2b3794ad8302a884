-- name: GetUser :one
SELECT id, timezone, channels, last_active_at FROM users WHERE id = sqlc.arg(id);

-- name: PutUser :exec
-- The profile, channels in JSON; the activity is kept.
INSERT INTO users (id, timezone, channels) VALUES (sqlc.arg(id), sqlc.arg(timezone), sqlc.arg(channels))
ON DUPLICATE KEY UPDATE timezone = VALUES(timezone), channels = VALUES(channels);

-- name: TouchUser :exec
-- The user acted at now. A user first seen here gets the default profile;
-- last_active_at never moves back (GREATEST of a NULL is NULL, hence the
-- COALESCE). One upsert: concurrent claims of one user queue on its row;
-- two that both insert it may deadlock, and the loser's transaction is run
-- again (retryTx).
INSERT INTO users (id, timezone, channels, last_active_at) VALUES (sqlc.arg(id), 'UTC', '[]', sqlc.arg(now))
ON DUPLICATE KEY UPDATE
    last_active_at = GREATEST(COALESCE(last_active_at, VALUES(last_active_at)), VALUES(last_active_at));

-- name: GetUser
SELECT id, timezone, channels, last_active_at FROM users WHERE id = ?;

-- name: PutUser
-- id, timezone, channels (JSON): the profile; the activity is kept.
INSERT INTO users (id, timezone, channels) VALUES (?, ?, ?)
ON DUPLICATE KEY UPDATE timezone = VALUES(timezone), channels = VALUES(channels);

-- name: TouchUser
-- id, now: the user acted. A user first seen here gets the default
-- profile; last_active_at never moves back (GREATEST of a NULL is NULL,
-- hence the COALESCE). One upsert: concurrent claims of one user queue on
-- its row; two that both insert it may deadlock, and the loser's
-- transaction is run again (retryTx).
INSERT INTO users (id, timezone, channels, last_active_at) VALUES (?, 'UTC', '[]', ?)
ON DUPLICATE KEY UPDATE
    last_active_at = GREATEST(COALESCE(last_active_at, VALUES(last_active_at)), VALUES(last_active_at));

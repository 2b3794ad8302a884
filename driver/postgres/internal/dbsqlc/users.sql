-- name: GetUser :one
SELECT id, timezone, channels, last_active_at FROM users WHERE id = @id;

-- name: PutUser :one
-- The profile; the activity is kept.
INSERT INTO users (id, timezone, channels) VALUES (@id, @timezone, @channels)
ON CONFLICT (id) DO UPDATE SET timezone = excluded.timezone, channels = excluded.channels
RETURNING id, timezone, channels, last_active_at;

-- name: TouchUser :exec
-- The user acted at now. A user first seen here gets the default profile;
-- last_active_at never moves back (greatest ignores a NULL). One upsert:
-- concurrent claims of one user queue on its row, whether or not it
-- existed.
INSERT INTO users (id, timezone, channels, last_active_at) VALUES (@id, 'UTC', '{}', @now::timestamptz)
ON CONFLICT (id) DO UPDATE SET last_active_at = greatest(users.last_active_at, excluded.last_active_at);

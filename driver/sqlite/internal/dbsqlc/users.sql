-- name: GetUser :one
SELECT id, timezone, channels, last_active_at FROM users WHERE id = @id;

-- name: PutUser :one
-- The profile, channels in JSON; the activity is kept.
INSERT INTO users (id, timezone, channels) VALUES (@id, @timezone, @channels)
ON CONFLICT (id) DO UPDATE SET timezone = excluded.timezone, channels = excluded.channels
RETURNING id, timezone, channels, last_active_at;

-- name: TouchUser :exec
-- The user acted at now. A user first seen here gets the default profile;
-- last_active_at never moves back. The upsert reads excluded, not the
-- parameters: sqlc leaves a named parameter in DO UPDATE unrewritten.
INSERT INTO users (id, timezone, channels, last_active_at) VALUES (@id, 'UTC', '[]', @now)
ON CONFLICT (id) DO UPDATE SET last_active_at = max(coalesce(last_active_at, excluded.last_active_at), excluded.last_active_at);

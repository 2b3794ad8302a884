-- name: GetUser
SELECT id, timezone, channels, last_active_at FROM users WHERE id = $1;

-- name: PutUser
-- $1 id, $2 timezone, $3 channels: the profile; the activity is kept.
INSERT INTO users (id, timezone, channels) VALUES ($1, $2, $3)
ON CONFLICT (id) DO UPDATE SET timezone = excluded.timezone, channels = excluded.channels
RETURNING id, timezone, channels, last_active_at;

-- name: TouchUser
-- $1 id, $2 now: the user acted. A user first seen here gets the default
-- profile; last_active_at never moves back (greatest ignores a NULL). One
-- upsert: concurrent claims of one user queue on its row, whether or not
-- it existed.
INSERT INTO users (id, timezone, channels, last_active_at) VALUES ($1, 'UTC', '{}', $2)
ON CONFLICT (id) DO UPDATE SET last_active_at = greatest(users.last_active_at, excluded.last_active_at);

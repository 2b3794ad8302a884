-- Instances. Every time here is the database's clock (the view clock),
-- in unix milliseconds.

-- name: SeenInstance :exec
-- The instance holder is alive now.
INSERT INTO instances (holder, seen_at) VALUES (@holder, (SELECT now FROM clock))
ON CONFLICT (holder) DO UPDATE SET seen_at = excluded.seen_at;

-- name: MeasuredSkew :exec
-- The instance holder is alive now, and measured its clock skew skew_ms now.
INSERT INTO instances (holder, seen_at, skew_ms, skew_at)
VALUES (@holder, (SELECT now FROM clock), @skew_ms, (SELECT now FROM clock))
ON CONFLICT (holder) DO UPDATE SET seen_at = excluded.seen_at, skew_ms = excluded.skew_ms, skew_at = excluded.skew_at;

-- Shard leases. SQLite has one writer: what a write transaction reads
-- stays as it read it until it commits, so no query here locks a row.
-- (The clock is aliased: sqlc reads its column as ambiguous otherwise.)

-- name: Clock :one
SELECT now FROM clock;

-- name: ForgetInstances :exec
-- Instances unseen for longer than unseen_ms.
DELETE FROM instances WHERE seen_at < (SELECT k.now FROM clock AS k) - @unseen_ms;

-- name: Instances :many
-- Instances seen within seen_ms, by name.
SELECT holder, seen_at, skew_ms, skew_at FROM instances
WHERE seen_at > (SELECT k.now FROM clock AS k) - @seen_ms ORDER BY holder;

-- name: RenewLeases :many
-- The holder's unexpired leases, to ttl_ms from now.
UPDATE leases SET expires_at = (SELECT k.now FROM clock AS k) + @ttl_ms
WHERE holder = @holder AND expires_at > (SELECT k.now FROM clock AS k)
RETURNING shard, token;

-- name: DropLeases :exec
-- The holder's shards of the JSON array shards to give up: they are free
-- at once.
UPDATE leases SET holder = '', expires_at = 0
WHERE holder = @holder AND shard IN (SELECT value FROM json_each(@shards));

-- name: TakeLeases :many
-- Up to n free or expired shards, lowest first, to the holder for ttl_ms,
-- each under a new token.
UPDATE leases SET holder = @holder, token = token + 1, expires_at = (SELECT k.now FROM clock AS k) + @ttl_ms
WHERE shard IN (
    SELECT l.shard FROM leases AS l WHERE l.expires_at <= (SELECT k.now FROM clock AS k)
    ORDER BY l.shard LIMIT @n)
RETURNING shard, token;

-- name: CheckLeases :many
-- Run last in a fenced drain: what the holder holds unexpired of the
-- shards of the JSON array shards.
SELECT shard, token FROM leases
WHERE holder = @holder AND shard IN (SELECT value FROM json_each(@shards)) AND expires_at > (SELECT k.now FROM clock AS k);

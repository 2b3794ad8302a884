-- name: ShardLeases :many
SELECT shard, holder, token, expires_at FROM leases ORDER BY shard;

-- Every time here is the database's clock, NOW(6): UTC_TIMESTAMP(6),
-- which sqlc's MySQL catalog does not know, on the driver's sessions,
-- whose time_zone Config sets to '+00:00' whatever the URL says. Lengths
-- are in microseconds.

-- name: Clock :one
SELECT NOW(6);

-- name: SeenInstance :exec
INSERT INTO instances (holder, seen_at) VALUES (sqlc.arg(holder), NOW(6))
ON DUPLICATE KEY UPDATE seen_at = VALUES(seen_at);

-- name: MeasuredSkew :exec
-- The holder is alive now, and measured its clock skew, in ms, now.
INSERT INTO instances (holder, seen_at, skew_ms, skew_at) VALUES (sqlc.arg(holder), NOW(6), sqlc.arg(skew_ms), NOW(6))
ON DUPLICATE KEY UPDATE seen_at = VALUES(seen_at), skew_ms = VALUES(skew_ms), skew_at = VALUES(skew_at);

-- name: ForgetInstances :exec
-- Instances unseen for longer than unseen_us.
DELETE FROM instances WHERE seen_at < NOW(6) - INTERVAL CAST(sqlc.arg(unseen_us) AS SIGNED) MICROSECOND;

-- name: Instances :many
-- Instances seen within seen_us, by name.
SELECT holder, seen_at, skew_ms, skew_at FROM instances
WHERE seen_at > NOW(6) - INTERVAL CAST(sqlc.arg(seen_us) AS SIGNED) MICROSECOND ORDER BY holder;

-- name: HeldLeases :many
-- Locked until the lease transaction commits.
SELECT shard, token FROM leases
WHERE holder = sqlc.arg(holder) AND expires_at > NOW(6)
ORDER BY shard
FOR UPDATE;

-- name: FreeLeases :many
-- Up to n free or expired shards; a shard another instance is taking at
-- the same moment is skipped.
SELECT shard, token FROM leases
WHERE expires_at <= NOW(6)
ORDER BY shard LIMIT ?
FOR UPDATE SKIP LOCKED;

-- name: ExtendLeases :exec
-- The holder's shards listed, locked by HeldLeases, to ttl_us from now.
UPDATE leases SET expires_at = NOW(6) + INTERVAL CAST(sqlc.arg(ttl_us) AS SIGNED) MICROSECOND
WHERE holder = sqlc.arg(holder) AND shard IN (sqlc.slice(shards));

-- name: DropLeases :exec
-- The holder's shards listed to give up: they are free at once.
UPDATE leases SET holder = '', expires_at = '1970-01-01 00:00:00'
WHERE holder = sqlc.arg(holder) AND shard IN (sqlc.slice(shards));

-- name: TakeLeases :exec
-- The shards listed, locked by FreeLeases, to the holder for ttl_us, each
-- under a new token.
UPDATE leases SET holder = sqlc.arg(holder), token = token + 1,
                  expires_at = NOW(6) + INTERVAL CAST(sqlc.arg(ttl_us) AS SIGNED) MICROSECOND
WHERE shard IN (sqlc.slice(shards));

-- name: CheckLeases :many
-- Run last in a fenced drain: what the holder holds unexpired of the
-- shards listed, under a share lock that keeps it from changing hands
-- until the drain commits.
SELECT shard, token FROM leases
WHERE holder = sqlc.arg(holder) AND shard IN (sqlc.slice(shards)) AND expires_at > NOW(6)
LOCK IN SHARE MODE;

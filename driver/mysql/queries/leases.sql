-- Shard leases. Every time here is the database's clock, in UTC like the
-- session; lengths are in microseconds.

-- name: SeenInstance
-- holder.
INSERT INTO instances (holder, seen_at) VALUES (?, UTC_TIMESTAMP(6))
ON DUPLICATE KEY UPDATE seen_at = VALUES(seen_at);

-- name: ForgetInstances
-- how long an instance unseen is remembered.
DELETE FROM instances WHERE seen_at < UTC_TIMESTAMP(6) - INTERVAL ? MICROSECOND;

-- name: HeldLeases
-- holder. Locked until the lease transaction commits.
SELECT shard, token FROM leases
WHERE holder = ? AND expires_at > UTC_TIMESTAMP(6)
ORDER BY shard
FOR UPDATE;

-- name: FreeLeases
-- how many. Free or expired shards; a shard another instance is taking
-- at the same moment is skipped.
SELECT shard, token FROM leases
WHERE expires_at <= UTC_TIMESTAMP(6)
ORDER BY shard LIMIT ?
FOR UPDATE SKIP LOCKED;

-- name: ExtendLeases
-- TTL, holder, then the shards, locked by HeldLeases.
UPDATE leases SET expires_at = UTC_TIMESTAMP(6) + INTERVAL ? MICROSECOND
WHERE holder = ? AND shard IN (?, ...);

-- name: DropLeases
-- holder, then the shards to give up: they are free at once.
UPDATE leases SET holder = '', expires_at = '1970-01-01 00:00:00'
WHERE holder = ? AND shard IN (?, ...);

-- name: TakeLeases
-- holder, TTL, then the shards, locked by FreeLeases: each under a new
-- token.
UPDATE leases SET holder = ?, token = token + 1, expires_at = UTC_TIMESTAMP(6) + INTERVAL ? MICROSECOND
WHERE shard IN (?, ...);

-- name: CheckLeases
-- holder, then the shards. Run last in a fenced drain: what the holder
-- holds unexpired of them, under a share lock that keeps it from changing
-- hands until the drain commits.
SELECT shard, token FROM leases
WHERE holder = ? AND shard IN (?, ...) AND expires_at > UTC_TIMESTAMP(6)
LOCK IN SHARE MODE;

-- name: Clock
SELECT UTC_TIMESTAMP(6);

-- name: MeasuredSkew
-- holder, its clock skew in ms: it is alive now, and measured it now.
INSERT INTO instances (holder, seen_at, skew_ms, skew_at) VALUES (?, UTC_TIMESTAMP(6), ?, UTC_TIMESTAMP(6))
ON DUPLICATE KEY UPDATE seen_at = VALUES(seen_at), skew_ms = VALUES(skew_ms), skew_at = VALUES(skew_at);

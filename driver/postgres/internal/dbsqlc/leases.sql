-- name: DropLeases :exec
-- The holder gives up its leases of shards: they are free at once.
UPDATE leases SET holder = '', expires_at = '-infinity'
WHERE holder = @holder AND shard = ANY(@shards::smallint[]);

-- name: CheckLeases :many
-- Run last in a fenced drain: what the holder holds unexpired of shards,
-- under a share lock that keeps it from changing hands until the drain
-- commits.
SELECT shard, token FROM leases
WHERE holder = @holder AND shard = ANY(@shards::smallint[]) AND expires_at > clock_timestamp()
FOR SHARE;

-- name: SeenInstance :exec
-- The instance holder is alive now.
INSERT INTO instances (holder, seen_at) VALUES (@holder, clock_timestamp())
ON CONFLICT (holder) DO UPDATE SET seen_at = excluded.seen_at;

-- name: MeasuredSkew :exec
-- The instance holder is alive now, and measured its clock skew skew_ms now.
INSERT INTO instances (holder, seen_at, skew_ms, skew_at) VALUES (@holder, clock_timestamp(), @skew_ms, clock_timestamp())
ON CONFLICT (holder) DO UPDATE SET seen_at = excluded.seen_at, skew_ms = excluded.skew_ms, skew_at = excluded.skew_at;

-- name: Clock :one
-- The database's clock (cast, so that sqlc types it).
SELECT clock_timestamp()::timestamptz AS now;

-- name: ForgetInstances :exec
-- Instances unseen for longer than unseen_ms go.
DELETE FROM instances WHERE seen_at < clock_timestamp() - sqlc.arg(unseen_ms)::bigint * interval '1 millisecond';

-- name: RenewLeases :many
-- The holder's unexpired leases extended to ttl_ms from now.
UPDATE leases SET expires_at = clock_timestamp() + sqlc.arg(ttl_ms)::bigint * interval '1 millisecond'
WHERE holder = @holder AND expires_at > clock_timestamp()
RETURNING shard, token;

-- name: TakeLeases :many
-- Up to n free or expired shards for holder, each under a new token, to
-- ttl_ms from now; a shard another instance is taking at the same moment
-- is skipped.
UPDATE leases SET holder = @holder, token = token + 1, expires_at = clock_timestamp() + sqlc.arg(ttl_ms)::bigint * interval '1 millisecond'
WHERE shard = ANY(ARRAY(
        SELECT shard FROM leases WHERE expires_at <= clock_timestamp()
        ORDER BY shard LIMIT @n
        FOR UPDATE SKIP LOCKED))
RETURNING shard, token;

-- name: Instances :many
-- The instances seen within ago_ms, by name.
SELECT holder, seen_at, skew_ms, skew_at FROM instances
WHERE seen_at > clock_timestamp() - sqlc.arg(ago_ms)::bigint * interval '1 millisecond' ORDER BY holder COLLATE "C";

-- name: ShardLeases :many
-- A free shard's expires_at is -infinity, which time.Time cannot hold:
-- it reads as the epoch, as on the other stores.
SELECT shard, holder, token, greatest(expires_at, 'epoch'::timestamptz)::timestamptz AS expires_at FROM leases ORDER BY shard;

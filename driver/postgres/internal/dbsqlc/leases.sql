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

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

-- name: ShardLeases :many
SELECT shard, holder, token, expires_at FROM leases ORDER BY shard;

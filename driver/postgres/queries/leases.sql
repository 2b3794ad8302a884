-- Shard leases. Every time here is the database's clock.

-- name: TakeLeases
-- $1 holder, $2 TTL in ms, $3 how many. Free or expired shards, each under a new
-- token; a shard another instance is taking at the same moment is skipped.
UPDATE leases SET holder = $1, token = token + 1, expires_at = clock_timestamp() + $2 * interval '1 millisecond'
WHERE shard = ANY(ARRAY(
        SELECT shard FROM leases WHERE expires_at <= clock_timestamp()
        ORDER BY shard LIMIT $3
        FOR UPDATE SKIP LOCKED))
RETURNING shard, token;

-- Shard leases. Every time here is the database's clock (the view clock),
-- in unix milliseconds; lengths are in milliseconds. SQLite has one
-- writer: what a write transaction reads stays as it read it until it
-- commits, so no query here locks a row.

-- name: ForgetInstances
-- ?1 how long an instance unseen is remembered.
DELETE FROM instances WHERE seen_at < (SELECT now FROM clock) - ?1;

-- name: RenewLeases
-- ?1 holder, ?2 TTL.
UPDATE leases SET expires_at = (SELECT now FROM clock) + ?2
WHERE holder = ?1 AND expires_at > (SELECT now FROM clock)
RETURNING shard, token;

-- name: DropLeases
-- ?1 holder, ?2 the JSON array of the shards to give up: they are free at
-- once.
UPDATE leases SET holder = '', expires_at = 0
WHERE holder = ?1 AND shard IN (SELECT value FROM json_each(?2));

-- name: TakeLeases
-- ?1 holder, ?2 TTL, ?3 how many. Free or expired shards, lowest first,
-- each under a new token.
UPDATE leases SET holder = ?1, token = token + 1, expires_at = (SELECT now FROM clock) + ?2
WHERE shard IN (
    SELECT shard FROM leases WHERE expires_at <= (SELECT now FROM clock)
    ORDER BY shard LIMIT ?3)
RETURNING shard, token;

-- name: CheckLeases
-- ?1 holder, ?2 the JSON array of the shards. Run last in a fenced drain:
-- what the holder holds unexpired of them.
SELECT shard, token FROM leases
WHERE holder = ?1 AND shard IN (SELECT value FROM json_each(?2)) AND expires_at > (SELECT now FROM clock);

-- name: Clock
SELECT now FROM clock;

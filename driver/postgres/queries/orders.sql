-- name: NextDeadline
-- $1, $2 a range of shards.
SELECT deadline FROM orders WHERE status = 'unpaid' AND shard BETWEEN $1 AND $2 ORDER BY deadline LIMIT 1;

-- name: DueOrderShards
-- now, the shard, limit: one shard's earliest unpaid orders past their
-- deadline, read from the index alone (see drain.sql).
SELECT shard, deadline AS due FROM orders FORCE INDEX (orders_due)
WHERE status = 'unpaid' AND deadline <= ? AND shard = ?
ORDER BY deadline LIMIT ?

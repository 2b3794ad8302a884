-- The drains claim due rows with FOR UPDATE SKIP LOCKED, so instances
-- draining side by side take disjoint batches, then change exactly the
-- rows claimed. A batch first reads, without locking, the earliest due
-- entries of each of its shards (a Due… query per shard: its due index
-- leads with (state, shard), so each is a range of that shard's due
-- entries in due order, 0009_shard_due.sql), merged earliest first up to
-- the limit: how many rows the batch takes of each shard (readDue in
-- shards.go). Then it claims them shard by shard (a Claim… query, sqlc's,
-- in internal/dbsqlc/drain.sql), a locking walk of that shard's range
-- alone, which holds the rows it returns and skips, without locking, rows
-- others hold: InnoDB locks every entry a locking read passes, so a walk
-- over other shards' rows would hold them too. FORCE INDEX keeps these
-- plans even when most of the table is due, as in a storm.
-- What reads every shard at once (NextExpiry and the others of
-- internal/dbsqlc/due.sql) reads the first entry of each, one index dive
-- per shard, or each shard's range (a list of them).

-- name: DueExpiryShards
-- now, the shard, limit: one shard's earliest due unused coupons, read
-- from the index alone (see readDue).
SELECT shard, expires_at AS due FROM coupons FORCE INDEX (coupons_due)
WHERE status = 'unused' AND expires_at <= ? AND shard = ?
ORDER BY expires_at LIMIT ?

-- name: DueLockShards
-- now, the shard, limit: one shard's earliest due locks. locked_until is
-- set while a coupon is locked and NULL in every other state: the range
-- on it reads locked coupons only.
SELECT shard, locked_until AS due FROM coupons FORCE INDEX (coupons_lock_due)
WHERE locked_until <= ? AND shard = ?
ORDER BY locked_until LIMIT ?

-- A drain given leases takes the rows of their shards only: its shards
-- argument is their JSON array, tested on each row the due index walk
-- meets; without leases it is '', the test stops there and the walk
-- reads only the index, as before there were shards.

-- name: ExpireDue
-- ?1 now, ?2 limit, ?3 the shards (see shardFilter). Walks the partial
-- index of unused coupons in due order.
UPDATE coupons SET status = 'expired', updated_at = ?1, version = version + 1
WHERE rowid IN (
    SELECT rowid FROM coupons
    WHERE status = 'unused' AND expires_at <= ?1 AND (?3 = '' OR lapse_shard(id) IN (SELECT value FROM json_each(?3)))
    ORDER BY expires_at LIMIT ?2)
RETURNING rowid, id, template_id, expires_at;

-- name: InsertExpiredRecord
-- The record (store.Record) of the coupon.expired events of the coupons
-- whose rowids are in the JSON array ?5, in its order, at ?4 (now): ?1 its
-- last position, ?2 how many, ?3 the first event's ID. An event's ID is
-- the ID time part ?6 of now followed by the coupon ID's 16 characters of
-- random bits: a coupon expires once, so the ID is unique, and it sorts
-- by time. The data is what store.CouponEvent writes, key for key. ?7 is
-- an expires_at most of the coupons share (in a storm, all) and ?8 it
-- formatted, which spares them strftime, a tenth of a storm's drain in a
-- profile.
INSERT INTO events (seq, n, id, time, body)
SELECT ?1, ?2, ?3, ?4, json_group_array(json_array(
           'evt_' || ?6 || substr(c.id, 15), 'coupon.expired', c.id, ?4,
           json_object('from', 'unused', 'reason', 'expiry', 'user_id', c.user_id, 'template_id', c.template_id,
                       'expires_at', CASE c.expires_at WHEN ?7 THEN ?8
                                     ELSE strftime('%Y-%m-%dT%H:%M:%fZ', c.expires_at / 1000.0, 'unixepoch') END))
       ORDER BY b.key)
FROM json_each(?5) AS b JOIN coupons AS c ON c.rowid = b.value;

-- name: NextExpiry
-- ?1 the shards.
SELECT expires_at FROM coupons WHERE status = 'unused' AND (?1 = '' OR lapse_shard(id) IN (SELECT value FROM json_each(?1)))
ORDER BY expires_at LIMIT 1;

-- name: LocksDue
-- ?1 now, ?2 limit, ?3 the shards.
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons
WHERE status = 'locked' AND locked_until <= ?1 AND (?3 = '' OR lapse_shard(id) IN (SELECT value FROM json_each(?3)))
ORDER BY locked_until LIMIT ?2;

-- name: NextRelease
-- ?1 the shards.
SELECT locked_until FROM coupons WHERE status = 'locked' AND (?1 = '' OR lapse_shard(id) IN (SELECT value FROM json_each(?1)))
ORDER BY locked_until LIMIT 1;

-- name: DueBacklog
SELECT (SELECT count(*) FROM coupons WHERE status = 'unused' AND expires_at <= ?1)
     + (SELECT count(*) FROM coupons WHERE status = 'locked' AND locked_until <= ?1)
     + (SELECT count(*) FROM orders WHERE status = 'unpaid' AND deadline <= ?1)
     + (SELECT count(*) FROM reminders WHERE status = 'planned' AND due_at <= ?1);

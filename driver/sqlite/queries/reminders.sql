-- name: UnplanCoupons
-- The items of the coupons in the JSON array ?1 go; the reminders they
-- were in come back.
DELETE FROM reminder_items WHERE coupon_id IN (SELECT value FROM json_each(?1)) RETURNING reminder_id;

-- name: ItemSpan
-- A reminder's coupons: how many, and their earliest and latest expiry.
SELECT count(*), min(expires_at), max(expires_at) FROM reminder_items WHERE reminder_id = ?;

-- name: RemindersDue
-- ?1 now, ?2 limit, ?3 the shards (see shardFilter): a reminder's is its
-- user's. Walks the partial index of planned reminders.
SELECT id, user_id, lead_ms, first_at, last_at, due_at FROM reminders
WHERE status = 'planned' AND due_at <= ?1 AND (?3 = '' OR lapse_shard(user_id) IN (SELECT value FROM json_each(?3)))
ORDER BY due_at LIMIT ?2;

-- name: NextReminder
-- ?1 the shards.
SELECT due_at FROM reminders WHERE status = 'planned' AND (?1 = '' OR lapse_shard(user_id) IN (SELECT value FROM json_each(?1)))
ORDER BY due_at LIMIT 1;

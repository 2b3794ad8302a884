-- The rows of planned reminders, their coupons and the pairs reminded;
-- the rules over them are the service's (store.DB). Leads are in
-- milliseconds.

-- name: DueReminderShards
-- now, the shard, limit: one shard's earliest due planned reminders, read
-- from the index alone (see drain.sql).
SELECT shard, due_at AS due FROM reminders FORCE INDEX (reminders_due)
WHERE status = 'planned' AND due_at <= ? AND shard = ?
ORDER BY due_at LIMIT ?

-- name: RemindersDue
-- now, the shard, limit. Claimed as the coupon drains claim (see
-- drain.sql): a reminder another instance holds is skipped.
SELECT id, user_id, lead_ms, first_at, last_at, due_at
FROM reminders FORCE INDEX (reminders_due)
WHERE status = 'planned' AND due_at <= ? AND shard = ?
ORDER BY due_at LIMIT ?
FOR UPDATE SKIP LOCKED;

-- name: NextReminder
-- the shards: the first entry of each (see drain.sql).
SELECT first FROM (
    SELECT (SELECT due_at FROM reminders FORCE INDEX (reminders_due)
            WHERE status = 'planned' AND shard = leases.shard ORDER BY due_at LIMIT 1) AS first
    FROM leases WHERE shard IN (?, ...)
) AS firsts WHERE first IS NOT NULL ORDER BY first LIMIT 1;

-- name: CouponReminders
-- The reminders the coupons listed are planned in, held until their
-- items are deleted.
SELECT reminder_id FROM reminder_items WHERE coupon_id IN (?, ...) ORDER BY reminder_id FOR UPDATE;

-- name: DeleteCouponItems
-- The items of the coupons listed.
DELETE FROM reminder_items WHERE coupon_id IN (?, ...);

-- name: ItemSpan
-- A reminder's coupons: how many, and their earliest and latest expiry.
SELECT count(*), min(expires_at), max(expires_at) FROM reminder_items WHERE reminder_id = ?;

-- name: ExpireDue :many
-- A drain given leases takes the rows of their shards only: shards is
-- their JSON array, tested on each row the due index walk meets; without
-- leases it is '', the test stops there and the walk reads only the
-- index, as before there were shards. lapse_shard is the driver's own
-- function (shard.go). Walks the partial index of unused coupons in due
-- order.
UPDATE coupons SET status = 'expired', updated_at = @now, version = version + 1
WHERE rowid IN (
    SELECT c.rowid FROM coupons AS c
    WHERE c.status = 'unused' AND c.expires_at <= @now AND (@shards = '' OR lapse_shard(c.id) IN (SELECT value FROM json_each(@shards)))
    ORDER BY c.expires_at LIMIT @lim)
RETURNING id, template_id, user_id, expires_at;

-- name: NextExpiry :one
-- The shards as ExpireDue's.
SELECT expires_at FROM coupons WHERE status = 'unused' AND (@shards = '' OR lapse_shard(id) IN (SELECT value FROM json_each(@shards)))
ORDER BY expires_at LIMIT 1;

-- name: LocksDue :many
-- The shards as ExpireDue's.
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons
WHERE status = 'locked' AND locked_until <= @now AND (@shards = '' OR lapse_shard(id) IN (SELECT value FROM json_each(@shards)))
ORDER BY locked_until LIMIT @lim;

-- name: NextRelease :one
-- The shards as ExpireDue's.
SELECT locked_until FROM coupons WHERE status = 'locked' AND (@shards = '' OR lapse_shard(id) IN (SELECT value FROM json_each(@shards)))
ORDER BY locked_until LIMIT 1;

-- name: OrdersDue :many
-- The shards as ExpireDue's.
SELECT id, user_id, status, close_reason, items, coupon_ids, total, discount, amount_due,
       deadline, payment_id, created_at, updated_at, version
FROM orders WHERE status = 'unpaid' AND deadline <= @now AND (@shards = '' OR lapse_shard(id) IN (SELECT value FROM json_each(@shards)))
ORDER BY deadline LIMIT @lim;

-- name: NextDeadline :one
-- The shards as ExpireDue's.
SELECT deadline FROM orders WHERE status = 'unpaid' AND (@shards = '' OR lapse_shard(id) IN (SELECT value FROM json_each(@shards)))
ORDER BY deadline LIMIT 1;

-- name: RemindersDue :many
-- The shards as ExpireDue's: a reminder's is its user's. Walks the
-- partial index of planned reminders.
SELECT id, user_id, lead_ms, first_at, last_at, due_at FROM reminders
WHERE status = 'planned' AND due_at <= @now AND (@shards = '' OR lapse_shard(user_id) IN (SELECT value FROM json_each(@shards)))
ORDER BY due_at LIMIT @lim;

-- name: NextReminder :one
-- The shards as ExpireDue's.
SELECT due_at FROM reminders WHERE status = 'planned' AND (@shards = '' OR lapse_shard(user_id) IN (SELECT value FROM json_each(@shards)))
ORDER BY due_at LIMIT 1;

-- name: DueBacklog :one
SELECT (SELECT count(*) FROM coupons AS c WHERE c.status = 'unused' AND c.expires_at <= @now)
     + (SELECT count(*) FROM coupons AS l WHERE l.status = 'locked' AND l.locked_until <= @now)
     + (SELECT count(*) FROM orders AS o WHERE o.status = 'unpaid' AND o.deadline <= @now)
     + (SELECT count(*) FROM reminders AS r WHERE r.status = 'planned' AND r.due_at <= @now) AS backlog;

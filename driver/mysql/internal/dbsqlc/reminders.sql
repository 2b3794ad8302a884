-- name: JoinableReminder :one
-- The earliest planned reminder of the user and lead whose coupons all
-- cross within [lo, hi].
SELECT id, user_id, lead_ms, first_at, last_at, due_at FROM reminders
WHERE user_id = sqlc.arg(user_id) AND lead_ms = sqlc.arg(lead_ms) AND status = 'planned'
  AND first_at >= sqlc.arg(lo) AND first_at <= sqlc.arg(hi) AND last_at <= sqlc.arg(hi)
ORDER BY first_at LIMIT 1;

-- name: InsertReminder :execlastid
INSERT INTO reminders (user_id, lead_ms, first_at, last_at, due_at, status)
VALUES (sqlc.arg(user_id), sqlc.arg(lead_ms), sqlc.arg(first_at), sqlc.arg(last_at), sqlc.arg(due_at), 'planned');

-- name: SetReminder :exec
UPDATE reminders SET first_at = sqlc.arg(first_at), last_at = sqlc.arg(last_at), due_at = sqlc.arg(due_at)
WHERE id = sqlc.arg(id) AND status = 'planned';

-- name: GetReminder :one
SELECT id, user_id, lead_ms, first_at, last_at, due_at FROM reminders WHERE id = sqlc.arg(id);

-- name: UserReminders :many
-- A user's planned reminders, to re-time them to a new profile.
SELECT id, user_id, lead_ms, first_at, last_at, due_at FROM reminders
WHERE user_id = sqlc.arg(user_id) AND status = 'planned' ORDER BY id;

-- name: PlannedOrReminded :one
-- Whether the pair is in a planned reminder or was reminded already.
SELECT EXISTS (SELECT 1 FROM reminder_items i WHERE i.coupon_id = sqlc.arg(coupon_id) AND i.lead_ms = sqlc.arg(lead_ms))
    OR EXISTS (SELECT 1 FROM reminded r WHERE r.coupon_id = sqlc.arg(coupon_id) AND r.lead_ms = sqlc.arg(lead_ms));

-- name: InsertReminderItem :exec
INSERT INTO reminder_items (coupon_id, lead_ms, reminder_id, expires_at, last_lead)
VALUES (sqlc.arg(coupon_id), sqlc.arg(lead_ms), sqlc.arg(reminder_id), sqlc.arg(expires_at), sqlc.arg(last_lead));

-- name: SentBetween :one
SELECT count(*) FROM reminders
WHERE user_id = sqlc.arg(user_id) AND status = 'sent' AND done_at >= sqlc.arg(start) AND done_at < sqlc.arg(end);

-- name: FinishReminder :execrows
UPDATE reminders SET status = sqlc.arg(status), channel = sqlc.arg(channel), reason = sqlc.arg(reason),
                     done_at = sqlc.arg(done_at)
WHERE id = sqlc.arg(id) AND status = 'planned';

-- name: DeleteReminderItems :exec
DELETE FROM reminder_items WHERE reminder_id = sqlc.arg(reminder_id);

-- name: InsertReminded :exec
-- The pair's key is what refuses a second reminder of it.
INSERT INTO reminded (coupon_id, lead_ms, reminder_id) VALUES (sqlc.arg(coupon_id), sqlc.arg(lead_ms), sqlc.arg(reminder_id));

-- name: ReminderCoupons :many
-- A reminder's coupons as they are now, with their template's value,
-- whether the lead is the template's last, and whether it was reminded.
SELECT c.id, c.template_id, c.user_id, c.status, c.claimed_at, c.expires_at, c.order_id, c.locked_until,
       c.updated_at, c.version, t.value, i.last_lead,
       EXISTS (SELECT 1 FROM reminded r WHERE r.coupon_id = i.coupon_id AND r.lead_ms = i.lead_ms) AS reminded
FROM reminder_items i
JOIN coupons c ON c.id = i.coupon_id
JOIN templates t ON t.id = c.template_id
WHERE i.reminder_id = sqlc.arg(reminder_id)
ORDER BY c.expires_at, c.id;

-- name: PruneReminders :execrows
-- Up to limit sent or dropped reminders done at or before done_at.
DELETE FROM reminders WHERE status IN ('sent', 'dropped') AND done_at <= sqlc.arg(done_at) LIMIT ?;

-- name: CouponReminders :many
-- The reminders the coupons listed are planned in, held until their
-- items are deleted.
SELECT reminder_id FROM reminder_items WHERE coupon_id IN (sqlc.slice(ids)) ORDER BY reminder_id FOR UPDATE;

-- name: DeleteCouponItems :exec
-- The items of the coupons listed.
DELETE FROM reminder_items WHERE coupon_id IN (sqlc.slice(ids));

-- name: ItemSpan :one
-- A reminder's coupons: how many, and their earliest and latest expiry;
-- no row if none.
SELECT count(*) AS n, CAST(min(expires_at) AS DATETIME(6)) AS first, CAST(max(expires_at) AS DATETIME(6)) AS last
FROM reminder_items WHERE reminder_id = sqlc.arg(reminder_id) HAVING count(*) > 0;

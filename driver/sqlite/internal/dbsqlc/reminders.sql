-- name: JoinableReminder :one
-- The earliest planned reminder of the user and lead whose coupons all
-- cross within [lo, hi].
SELECT id, first_at, last_at, due_at FROM reminders
WHERE status = 'planned' AND user_id = @user_id AND lead_ms = @lead_ms
  AND first_at >= @lo AND first_at <= @hi AND last_at <= @hi
ORDER BY first_at LIMIT 1;

-- name: InsertReminder :one
INSERT INTO reminders (user_id, lead_ms, first_at, last_at, due_at, status)
VALUES (@user_id, @lead_ms, @first_at, @last_at, @due_at, 'planned')
RETURNING id;

-- name: SetReminder :exec
UPDATE reminders SET first_at = @first_at, last_at = @last_at, due_at = @due_at WHERE id = @id AND status = 'planned';

-- name: GetReminder :one
SELECT id, user_id, lead_ms, first_at, last_at, due_at FROM reminders WHERE id = @id;

-- name: InsertReminderItem :exec
INSERT INTO reminder_items (coupon_id, lead_ms, reminder_id, expires_at, last_lead)
VALUES (@coupon_id, @lead_ms, @reminder_id, @expires_at, @last_lead);

-- name: UserReminders :many
-- A user's planned reminders, to re-time them to a new profile.
SELECT id, user_id, lead_ms, first_at, last_at, due_at FROM reminders WHERE status = 'planned' AND user_id = @user_id ORDER BY id;

-- name: SentToday :one
-- The reminders sent to the user in [day_start, day_end).
SELECT count(*) FROM reminders WHERE user_id = @user_id AND status = 'sent' AND done_at >= @day_start AND done_at < @day_end;

-- name: FinishReminder :execrows
-- The status is sent or dropped.
UPDATE reminders SET status = @status, channel = @channel, reason = @reason, done_at = @now WHERE id = @id AND status = 'planned';

-- name: DeleteReminderItems :exec
DELETE FROM reminder_items WHERE reminder_id = @reminder_id;

-- name: InsertReminded :exec
-- The pair's key is what refuses a second reminder of it.
INSERT INTO reminded (coupon_id, lead_ms, reminder_id) VALUES (@coupon_id, @lead_ms, @reminder_id);

-- name: ReminderCoupons :many
-- A reminder's coupons as they are now, with their template's value,
-- whether the lead is the template's last, and whether it was reminded.
SELECT c.id, c.template_id, c.user_id, c.status, c.claimed_at, c.expires_at, c.order_id, c.locked_until,
       c.updated_at, c.version, t.value, i.last_lead,
       EXISTS (SELECT 1 FROM reminded r WHERE r.coupon_id = i.coupon_id AND r.lead_ms = i.lead_ms) AS reminded
FROM reminder_items i
JOIN coupons c ON c.id = i.coupon_id
JOIN templates t ON t.id = c.template_id
WHERE i.reminder_id = @reminder_id
ORDER BY c.expires_at, c.id;

-- name: PlannedOrReminded :one
-- Whether the pair is in a planned reminder or was reminded already.
SELECT EXISTS (SELECT 1 FROM reminder_items i WHERE i.coupon_id = @coupon_id AND i.lead_ms = @lead_ms)
    OR EXISTS (SELECT 1 FROM reminded r WHERE r.coupon_id = @coupon_id AND r.lead_ms = @lead_ms);

-- name: UnplanCoupons :many
-- The items of the coupons in the JSON array ids go; the reminders they
-- were in come back.
DELETE FROM reminder_items WHERE coupon_id IN (SELECT value FROM json_each(@ids)) RETURNING reminder_id;

-- name: ItemSpan :one
-- A reminder's coupons: how many, and their earliest and latest expiry
-- (0 if none: expires_at is never NULL, so only then).
SELECT count(*) AS n, CAST(coalesce(min(expires_at), 0) AS INTEGER) AS earliest,
       CAST(coalesce(max(expires_at), 0) AS INTEGER) AS latest
FROM reminder_items WHERE reminder_id = @reminder_id;

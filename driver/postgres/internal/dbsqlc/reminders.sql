-- name: JoinableReminder :one
-- The earliest planned reminder of the user and lead (in ms) whose
-- coupons all cross within [lo, hi].
SELECT id, user_id, lead_ms, first_at, last_at, due_at FROM reminders
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

-- name: UserReminders :many
-- A user's planned reminders, to re-time them to a new profile.
SELECT id, user_id, lead_ms, first_at, last_at, due_at FROM reminders
WHERE status = 'planned' AND user_id = @user_id ORDER BY id;

-- name: RemindersDue :many
-- Reminders due at now of the shards lo to hi (see drain.sql), up to
-- lim. Walks the partial due index; a reminder another instance holds is
-- skipped.
SELECT id, user_id, lead_ms, first_at, last_at, due_at FROM reminders
WHERE status = 'planned' AND due_at <= @now AND shard BETWEEN @lo AND @hi
ORDER BY due_at LIMIT @lim
FOR UPDATE SKIP LOCKED;

-- name: InsertReminderItem :exec
INSERT INTO reminder_items (coupon_id, lead_ms, reminder_id, expires_at, last_lead)
VALUES (@coupon_id, @lead_ms, @reminder_id, @expires_at, @last_lead);

-- name: UnplanCoupons :many
-- The items of the coupons go; the reminders they were in come back.
DELETE FROM reminder_items WHERE coupon_id = ANY(@coupon_ids::text[]) RETURNING reminder_id;

-- name: ItemSpan :one
-- A reminder's coupons: how many, and their earliest and latest expiry.
SELECT count(*), min(expires_at), max(expires_at) FROM reminder_items WHERE reminder_id = @reminder_id;

-- name: SentBetween :one
SELECT count(*) FROM reminders WHERE user_id = @user_id AND status = 'sent' AND done_at >= @start AND done_at < @end_at;

-- name: FinishReminder :execrows
-- status: sent or dropped.
UPDATE reminders SET status = @status, channel = @channel, reason = @reason, done_at = @done_at
WHERE id = @id AND status = 'planned';

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

-- name: NextReminder :one
-- The earliest planned reminder in a range of shards.
SELECT due_at FROM reminders WHERE status = 'planned' AND shard BETWEEN $1 AND $2 ORDER BY due_at LIMIT 1;

-- The rows of planned reminders, their coupons and the pairs reminded;
-- the rules over them are the service layer's (store.DB). Leads
-- are in milliseconds.

-- name: JoinableReminder
-- $1 user, $2 lead, $3 lo, $4 hi: the earliest planned reminder of the
-- user and lead whose coupons all cross within [lo, hi].
SELECT id, user_id, lead_ms, first_at, last_at, due_at FROM reminders
WHERE status = 'planned' AND user_id = $1 AND lead_ms = $2
  AND first_at >= $3 AND first_at <= $4 AND last_at <= $4
ORDER BY first_at LIMIT 1;

-- name: InsertReminder
-- $1 user, $2 lead, $3 first, $4 last, $5 due.
INSERT INTO reminders (user_id, lead_ms, first_at, last_at, due_at, status)
VALUES ($1, $2, $3, $4, $5, 'planned')
RETURNING id;

-- name: SetReminder
-- $1 first, $2 last, $3 due, $4 id.
UPDATE reminders SET first_at = $1, last_at = $2, due_at = $3 WHERE id = $4 AND status = 'planned';

-- name: GetReminder
SELECT id, user_id, lead_ms, first_at, last_at, due_at FROM reminders WHERE id = $1;

-- name: UserReminders
-- A user's planned reminders, to re-time them to a new profile.
SELECT id, user_id, lead_ms, first_at, last_at, due_at FROM reminders
WHERE status = 'planned' AND user_id = $1 ORDER BY id;

-- name: RemindersDue
-- $1 now, $2 limit, $3, $4 a range of shards (see drain.sql). Walks the
-- partial due index; a reminder another instance holds is skipped.
SELECT id, user_id, lead_ms, first_at, last_at, due_at FROM reminders
WHERE status = 'planned' AND due_at <= $1 AND shard BETWEEN $3 AND $4
ORDER BY due_at LIMIT $2
FOR UPDATE SKIP LOCKED;

-- name: NextReminder
-- $1, $2 a range of shards.
SELECT due_at FROM reminders WHERE status = 'planned' AND shard BETWEEN $1 AND $2 ORDER BY due_at LIMIT 1;

-- name: PlannedOrReminded
-- $1 coupon, $2 lead: whether the pair is in a planned reminder or was
-- reminded already.
SELECT EXISTS (SELECT 1 FROM reminder_items WHERE coupon_id = $1 AND lead_ms = $2)
    OR EXISTS (SELECT 1 FROM reminded WHERE coupon_id = $1 AND lead_ms = $2);

-- name: InsertReminderItem
-- $1 coupon, $2 lead, $3 reminder, $4 expires_at, $5 last lead.
INSERT INTO reminder_items (coupon_id, lead_ms, reminder_id, expires_at, last_lead) VALUES ($1, $2, $3, $4, $5);

-- name: UnplanCoupons
-- The items of the coupons $1 go; the reminders they were in come back.
DELETE FROM reminder_items WHERE coupon_id = ANY($1::text[]) RETURNING reminder_id;

-- name: ItemSpan
-- A reminder's coupons: how many, and their earliest and latest expiry.
SELECT count(*), min(expires_at), max(expires_at) FROM reminder_items WHERE reminder_id = $1;

-- name: ReminderCoupons
-- A reminder's coupons as they are now, with their template's value,
-- whether the lead is the template's last, and whether it was reminded.
SELECT c.id, c.template_id, c.user_id, c.status, c.claimed_at, c.expires_at, c.order_id, c.locked_until,
       c.updated_at, c.version, t.value, i.last_lead,
       EXISTS (SELECT 1 FROM reminded r WHERE r.coupon_id = i.coupon_id AND r.lead_ms = i.lead_ms)
FROM reminder_items i
JOIN coupons c ON c.id = i.coupon_id
JOIN templates t ON t.id = c.template_id
WHERE i.reminder_id = $1
ORDER BY c.expires_at, c.id;

-- name: SentBetween
-- $1 user, $2 start, $3 end.
SELECT count(*) FROM reminders WHERE user_id = $1 AND status = 'sent' AND done_at >= $2 AND done_at < $3;

-- name: InsertReminded
-- The pair's key is what refuses a second reminder of it.
INSERT INTO reminded (coupon_id, lead_ms, reminder_id) VALUES ($1, $2, $3);

-- name: FinishReminder
-- $1 id, $2 status (sent, dropped), $3 channel, $4 reason, $5 now.
UPDATE reminders SET status = $2, channel = $3, reason = $4, done_at = $5 WHERE id = $1 AND status = 'planned';

-- name: DeleteReminderItems
DELETE FROM reminder_items WHERE reminder_id = $1;

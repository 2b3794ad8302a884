-- The rows of planned reminders, their coupons and the pairs reminded;
-- the rules over them are the service layer's (store.DB). Leads
-- are in milliseconds.

-- name: NextReminder
-- $1, $2 a range of shards.
SELECT due_at FROM reminders WHERE status = 'planned' AND shard BETWEEN $1 AND $2 ORDER BY due_at LIMIT 1;

-- name: PlannedOrReminded
-- $1 coupon, $2 lead: whether the pair is in a planned reminder or was
-- reminded already.
SELECT EXISTS (SELECT 1 FROM reminder_items WHERE coupon_id = $1 AND lead_ms = $2)
    OR EXISTS (SELECT 1 FROM reminded WHERE coupon_id = $1 AND lead_ms = $2);

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

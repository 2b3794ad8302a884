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

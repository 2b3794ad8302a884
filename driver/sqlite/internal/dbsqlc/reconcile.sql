-- name: OpenOrderPage :many
-- Unpaid orders after (deadline, id), by deadline and ID.
SELECT id, user_id, status, close_reason, items, coupon_ids, total, discount, amount_due,
       deadline, payment_id, created_at, updated_at, version
FROM orders WHERE status = 'unpaid' AND deadline >= @deadline AND (deadline > @deadline OR id > @id)
ORDER BY deadline, id LIMIT @page_size;

-- name: LockedPage :many
-- Locked coupons after (locked_until, id), by locked_until and ID.
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons WHERE status = 'locked' AND locked_until >= @locked_until AND (locked_until > @locked_until OR id > @id)
ORDER BY locked_until, id LIMIT @page_size;

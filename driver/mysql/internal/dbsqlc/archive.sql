-- name: CopyCoupons :exec
-- Copies the coupons listed to the archive, at archived_at. (The alias
-- keeps sqlc from reading id as the archive's.)
INSERT INTO coupons_archive (id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until,
                             updated_at, version, archived_at)
SELECT c.id, c.template_id, c.user_id, c.status, c.claimed_at, c.expires_at, c.order_id, c.locked_until, c.updated_at,
       c.version, sqlc.arg(archived_at)
FROM coupons AS c WHERE c.id IN (sqlc.slice(ids));

-- name: DeleteCoupons :exec
DELETE FROM coupons WHERE id IN (sqlc.slice(ids));

-- name: DeleteReminded :exec
-- The record of reminders of the coupons listed.
DELETE FROM reminded WHERE coupon_id IN (sqlc.slice(ids));

-- name: CopyOrders :exec
-- Copies the orders listed to the archive, at archived_at.
INSERT INTO orders_archive (id, user_id, status, close_reason, items, coupon_ids, total, discount, amount_due,
                            deadline, payment_id, created_at, updated_at, version, archived_at)
SELECT o.id, o.user_id, o.status, o.close_reason, o.items, o.coupon_ids, o.total, o.discount, o.amount_due,
       o.deadline, o.payment_id, o.created_at, o.updated_at, o.version, sqlc.arg(archived_at)
FROM orders AS o WHERE o.id IN (sqlc.slice(ids));

-- name: DeleteOrders :exec
DELETE FROM orders WHERE id IN (sqlc.slice(ids));

-- name: Archivable :one
-- What the archive would move at before, and PruneReminders delete at
-- reminders.
SELECT (SELECT count(*) FROM coupons AS c WHERE c.status IN ('used', 'expired', 'voided') AND c.updated_at <= sqlc.arg(before)) AS coupons,
       (SELECT count(*) FROM orders AS o WHERE o.status IN ('paid', 'closed') AND o.updated_at <= sqlc.arg(before)) AS orders,
       (SELECT count(*) FROM reminders AS r WHERE r.status IN ('sent', 'dropped') AND r.done_at <= sqlc.arg(reminders)) AS reminders;

-- name: ArchiveCoupons :many
-- Copies up to lim terminal coupons last changed at or before before,
-- oldest change first, to the archive with archived_at, and returns their
-- IDs for DeleteCoupons. (The alias keeps sqlc from reading the columns as
-- the archive's.)
INSERT INTO coupons_archive (id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until,
                             updated_at, version, archived_at)
SELECT c.id, c.template_id, c.user_id, c.status, c.claimed_at, c.expires_at, c.order_id, c.locked_until, c.updated_at,
       c.version, @archived_at
FROM coupons AS c WHERE c.status IN ('used', 'expired', 'voided') AND c.updated_at <= @before
ORDER BY c.updated_at LIMIT @lim
RETURNING id;

-- name: DeleteCoupons :exec
-- Deletes the coupons of the IDs in the JSON array ids.
DELETE FROM coupons WHERE id IN (SELECT value FROM json_each(@ids));

-- name: DeleteReminded :exec
-- Deletes the record of reminders of the coupons of the IDs in the JSON
-- array ids.
DELETE FROM reminded WHERE coupon_id IN (SELECT value FROM json_each(@ids));

-- name: ArchiveOrders :many
-- As ArchiveCoupons, for paid or closed orders; their IDs are for
-- DeleteOrders.
INSERT INTO orders_archive (id, user_id, status, close_reason, items, coupon_ids, total, discount, amount_due,
                            deadline, payment_id, created_at, updated_at, version, archived_at)
SELECT o.id, o.user_id, o.status, o.close_reason, o.items, o.coupon_ids, o.total, o.discount, o.amount_due,
       o.deadline, o.payment_id, o.created_at, o.updated_at, o.version, @archived_at
FROM orders AS o WHERE o.status IN ('paid', 'closed') AND o.updated_at <= @before
ORDER BY o.updated_at LIMIT @lim
RETURNING id;

-- name: DeleteOrders :exec
DELETE FROM orders WHERE id IN (SELECT value FROM json_each(@ids));

-- name: PruneReminders :execrows
-- Deletes up to lim sent or dropped reminders done at or before before.
DELETE FROM reminders WHERE id IN (
    SELECT r.id FROM reminders AS r WHERE r.status <> 'planned' AND r.done_at <= @before LIMIT @lim);

-- name: Archivable :one
-- What ArchiveCoupons and ArchiveOrders would move at before, and
-- PruneReminders delete at reminders.
SELECT (SELECT count(*) FROM coupons AS c WHERE c.status IN ('used', 'expired', 'voided') AND c.updated_at <= @before) AS coupons,
       (SELECT count(*) FROM orders AS o WHERE o.status IN ('paid', 'closed') AND o.updated_at <= @before) AS orders,
       (SELECT count(*) FROM reminders AS r WHERE r.status <> 'planned' AND r.done_at <= @reminders) AS reminders;

-- name: ArchiveCoupons :execrows
-- Moves up to $2 terminal coupons last changed at or before $1, oldest
-- change first, to the archive with archived_at $3, skipping those a
-- transaction holds, and deletes their record of reminders. (The aliases
-- keep sqlc from reading the columns as ambiguous.)
WITH moved AS (
    DELETE FROM coupons WHERE id = ANY(ARRAY(
        SELECT c.id FROM coupons AS c WHERE c.status IN ('used', 'expired', 'voided') AND c.updated_at <= $1
        ORDER BY c.updated_at LIMIT $2 FOR UPDATE SKIP LOCKED))
    RETURNING id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
), forgotten AS (
    DELETE FROM reminded WHERE coupon_id IN (SELECT m.id FROM moved AS m)
)
INSERT INTO coupons_archive (id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until,
                             updated_at, version, archived_at)
SELECT m.id, m.template_id, m.user_id, m.status, m.claimed_at, m.expires_at, m.order_id, m.locked_until, m.updated_at,
       m.version, $3
FROM moved AS m;

-- name: ArchiveOrders :execrows
-- Moves up to $2 paid or closed orders last changed at or before $1,
-- oldest change first, to the archive with archived_at $3, skipping those
-- a transaction holds.
WITH moved AS (
    DELETE FROM orders WHERE id = ANY(ARRAY(
        SELECT o.id FROM orders AS o WHERE o.status IN ('paid', 'closed') AND o.updated_at <= $1
        ORDER BY o.updated_at LIMIT $2 FOR UPDATE SKIP LOCKED))
    RETURNING id, user_id, status, close_reason, items, coupon_ids, total, discount, amount_due,
              deadline, payment_id, created_at, updated_at, version
)
INSERT INTO orders_archive (id, user_id, status, close_reason, items, coupon_ids, total, discount, amount_due,
                            deadline, payment_id, created_at, updated_at, version, archived_at)
SELECT m.id, m.user_id, m.status, m.close_reason, m.items, m.coupon_ids, m.total, m.discount, m.amount_due,
       m.deadline, m.payment_id, m.created_at, m.updated_at, m.version, $3
FROM moved AS m;

-- name: PruneReminders :execrows
-- Deletes up to $2 sent or dropped reminders done at or before $1,
-- skipping those a transaction holds.
DELETE FROM reminders WHERE id = ANY(ARRAY(
    SELECT r.id FROM reminders AS r WHERE r.status <> 'planned' AND r.done_at <= $1 LIMIT $2 FOR UPDATE SKIP LOCKED));

-- name: Archivable :one
-- What ArchiveCoupons and ArchiveOrders would move at $1, and
-- PruneReminders delete at $2.
SELECT (SELECT count(*) FROM coupons AS c WHERE c.status IN ('used', 'expired', 'voided') AND c.updated_at <= $1) AS coupons,
       (SELECT count(*) FROM orders AS o WHERE o.status IN ('paid', 'closed') AND o.updated_at <= $1) AS orders,
       (SELECT count(*) FROM reminders AS r WHERE r.status <> 'planned' AND r.done_at <= $2) AS reminders;

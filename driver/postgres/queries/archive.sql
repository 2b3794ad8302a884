-- name: ArchiveCoupons
-- Moves up to $2 terminal coupons last changed at or before $1, oldest
-- change first, to the archive with archived_at $3, skipping those a
-- transaction holds, and deletes their record of reminders.
WITH moved AS (
    DELETE FROM coupons WHERE id = ANY(ARRAY(
        SELECT id FROM coupons WHERE status IN ('used', 'expired', 'voided') AND updated_at <= $1
        ORDER BY updated_at LIMIT $2 FOR UPDATE SKIP LOCKED))
    RETURNING id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
), forgotten AS (
    DELETE FROM reminded WHERE coupon_id IN (SELECT id FROM moved)
)
INSERT INTO coupons_archive (id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until,
                             updated_at, version, archived_at)
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version, $3
FROM moved;

-- name: ArchiveOrders
-- Moves up to $2 paid or closed orders last changed at or before $1,
-- oldest change first, to the archive with archived_at $3, skipping those
-- a transaction holds.
WITH moved AS (
    DELETE FROM orders WHERE id = ANY(ARRAY(
        SELECT id FROM orders WHERE status IN ('paid', 'closed') AND updated_at <= $1
        ORDER BY updated_at LIMIT $2 FOR UPDATE SKIP LOCKED))
    RETURNING id, user_id, status, close_reason, items, coupon_ids, total, discount, amount_due,
              deadline, payment_id, created_at, updated_at, version
)
INSERT INTO orders_archive (id, user_id, status, close_reason, items, coupon_ids, total, discount, amount_due,
                            deadline, payment_id, created_at, updated_at, version, archived_at)
SELECT id, user_id, status, close_reason, items, coupon_ids, total, discount, amount_due,
       deadline, payment_id, created_at, updated_at, version, $3
FROM moved;

-- name: PruneReminders
-- Deletes up to $2 sent or dropped reminders done at or before $1,
-- skipping those a transaction holds.
DELETE FROM reminders WHERE id = ANY(ARRAY(
    SELECT id FROM reminders WHERE status <> 'planned' AND done_at <= $1 LIMIT $2 FOR UPDATE SKIP LOCKED));

-- name: Archivable
-- What ArchiveCoupons and ArchiveOrders would move at $1, and
-- PruneReminders delete at $2.
SELECT (SELECT count(*) FROM coupons WHERE status IN ('used', 'expired', 'voided') AND updated_at <= $1),
       (SELECT count(*) FROM orders WHERE status IN ('paid', 'closed') AND updated_at <= $1),
       (SELECT count(*) FROM reminders WHERE status <> 'planned' AND done_at <= $2);

-- name: UserCouponsWithArchived
-- UserCoupons's page over the coupons and the archive together: a page of
-- each table's wallet index, merged by ID. A coupon is in one table or the
-- other, so one moved to the archive between two pages is read once.
(SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
 FROM coupons
 WHERE user_id = $1 AND id > $2
      AND ($3 = '' OR CASE WHEN status = 'unused' AND expires_at <= $4 THEN 'expired' ELSE status END = $3)
 ORDER BY id LIMIT $5)
UNION ALL
(SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
 FROM coupons_archive
 WHERE user_id = $1 AND id > $2
      AND ($3 = '' OR CASE WHEN status = 'unused' AND expires_at <= $4 THEN 'expired' ELSE status END = $3)
 ORDER BY id LIMIT $5)
ORDER BY id LIMIT $5;

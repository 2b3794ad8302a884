-- name: ArchiveCoupons
-- Copies up to ?2 terminal coupons last changed at or before ?1, oldest
-- change first, to the archive with archived_at ?3, and returns their IDs
-- for DeleteCoupons.
INSERT INTO coupons_archive (id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until,
                             updated_at, version, archived_at)
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version, ?3
FROM coupons WHERE status IN ('used', 'expired', 'voided') AND updated_at <= ?1
ORDER BY updated_at LIMIT ?2
RETURNING id;

-- name: DeleteCoupons
-- Deletes the coupons of the IDs in the JSON array ?1.
DELETE FROM coupons WHERE id IN (SELECT value FROM json_each(?1));

-- name: DeleteReminded
-- Deletes the record of reminders of the coupons of the IDs in the JSON
-- array ?1.
DELETE FROM reminded WHERE coupon_id IN (SELECT value FROM json_each(?1));

-- name: ArchiveOrders
-- Copies up to ?2 paid or closed orders last changed at or before ?1,
-- oldest change first, to the archive with archived_at ?3, and returns
-- their IDs for DeleteOrders.
INSERT INTO orders_archive (id, user_id, status, close_reason, items, coupon_ids, total, discount, amount_due,
                            deadline, payment_id, created_at, updated_at, version, archived_at)
SELECT id, user_id, status, close_reason, items, coupon_ids, total, discount, amount_due,
       deadline, payment_id, created_at, updated_at, version, ?3
FROM orders WHERE status IN ('paid', 'closed') AND updated_at <= ?1
ORDER BY updated_at LIMIT ?2
RETURNING id;

-- name: DeleteOrders
DELETE FROM orders WHERE id IN (SELECT value FROM json_each(?1));

-- name: PruneReminders
-- Deletes up to ?2 sent or dropped reminders done at or before ?1.
DELETE FROM reminders WHERE id IN (
    SELECT id FROM reminders WHERE status <> 'planned' AND done_at <= ?1 LIMIT ?2);

-- name: Archivable
-- What ArchiveCoupons and ArchiveOrders would move at ?1, and
-- PruneReminders delete at ?2.
SELECT (SELECT count(*) FROM coupons WHERE status IN ('used', 'expired', 'voided') AND updated_at <= ?1),
       (SELECT count(*) FROM orders WHERE status IN ('paid', 'closed') AND updated_at <= ?1),
       (SELECT count(*) FROM reminders WHERE status <> 'planned' AND done_at <= ?2);

-- name: UserCouponsWithArchived
-- UserCoupons's page over the coupons and the archive together: a merge by
-- ID of walks of each table's wallet index, each run only as far as the
-- page takes. A coupon is in one table or the other, so one moved to the
-- archive between two pages is read once.
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons
WHERE user_id = ?1 AND id > ?2
  AND (?3 = '' OR CASE WHEN status = 'unused' AND expires_at <= ?4 THEN 'expired' ELSE status END = ?3)
UNION ALL
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons_archive
WHERE user_id = ?1 AND id > ?2
  AND (?3 = '' OR CASE WHEN status = 'unused' AND expires_at <= ?4 THEN 'expired' ELSE status END = ?3)
ORDER BY id LIMIT ?5;

-- name: CopyCoupons
-- archived_at, IDs: copies the coupons listed to the archive.
INSERT INTO coupons_archive (id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until,
                             updated_at, version, archived_at)
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version, ?
FROM coupons WHERE id IN (?, ...);

-- name: DeleteCoupons
DELETE FROM coupons WHERE id IN (?, ...);

-- name: DeleteReminded
-- The record of reminders of the coupons listed.
DELETE FROM reminded WHERE coupon_id IN (?, ...);

-- name: CopyOrders
-- archived_at, IDs: copies the orders listed to the archive.
INSERT INTO orders_archive (id, user_id, status, close_reason, items, coupon_ids, total, discount, amount_due,
                            deadline, payment_id, created_at, updated_at, version, archived_at)
SELECT id, user_id, status, close_reason, items, coupon_ids, total, discount, amount_due,
       deadline, payment_id, created_at, updated_at, version, ?
FROM orders WHERE id IN (?, ...);

-- name: DeleteOrders
DELETE FROM orders WHERE id IN (?, ...);

-- name: Archivable
-- before, before, reminders: what the archive would move at before, and
-- PruneReminders delete at reminders.
SELECT (SELECT count(*) FROM coupons WHERE status IN ('used', 'expired', 'voided') AND updated_at <= ?),
       (SELECT count(*) FROM orders WHERE status IN ('paid', 'closed') AND updated_at <= ?),
       (SELECT count(*) FROM reminders WHERE status IN ('sent', 'dropped') AND done_at <= ?);

-- name: UserCouponsWithArchived
-- UserCoupons's arguments twice, then the limit. Its page over the coupons
-- and the archive together: a page of each table's wallet index, merged by
-- ID (a sort of the two pages, at most twice the limit). A coupon is in
-- one table or the other, so one moved to the archive between two pages
-- is read once.
(SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
 FROM coupons
 WHERE user_id = ? AND id > ?
      AND (? = '' OR CASE WHEN status = 'unused' AND expires_at <= ? THEN 'expired' ELSE status END = ?)
 ORDER BY id LIMIT ?)
UNION ALL
(SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
 FROM coupons_archive
 WHERE user_id = ? AND id > ?
      AND (? = '' OR CASE WHEN status = 'unused' AND expires_at <= ? THEN 'expired' ELSE status END = ?)
 ORDER BY id LIMIT ?)
ORDER BY id LIMIT ?;

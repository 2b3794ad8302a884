-- name: GetCoupon :one
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons WHERE id = @id;

-- name: UserCoupons :many
-- A page of the user's wallet by ID: a walk of coupons_wallet from after
-- ('' for none) that stops at page_size coupons in status ('' for any) as
-- the lazy check reads them at now (an unused coupon at or past expires_at
-- reads expired).
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons
WHERE user_id = @user_id AND id > @after
  AND (@status = '' OR CASE WHEN status = 'unused' AND expires_at <= @now THEN 'expired' ELSE status END = @status)
ORDER BY id LIMIT @page_size;

-- name: CompareAndSet :execrows
-- The guarded transition: it changes nothing unless the coupon is still
-- in the state and version the decision was made on.
UPDATE coupons SET status = @status, order_id = @order_id, locked_until = @locked_until, updated_at = @updated_at, version = version + 1
WHERE id = @id AND status = @from_status AND version = @version;

-- name: GetArchivedCoupon :one
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons_archive WHERE id = @id;

-- name: UserCouponsWithArchived :many
-- UserCoupons's page over the coupons and the archive together: a merge by
-- ID of walks of each table's wallet index, each run only as far as the
-- page takes. A coupon is in one table or the other, so one moved to the
-- archive between two pages is read once.
SELECT c.id, c.template_id, c.user_id, c.status, c.claimed_at, c.expires_at, c.order_id, c.locked_until, c.updated_at, c.version
FROM coupons AS c
WHERE c.user_id = @user_id AND c.id > @after
  AND (@status = '' OR CASE WHEN c.status = 'unused' AND c.expires_at <= @now THEN 'expired' ELSE c.status END = @status)
UNION ALL
SELECT a.id, a.template_id, a.user_id, a.status, a.claimed_at, a.expires_at, a.order_id, a.locked_until, a.updated_at, a.version
FROM coupons_archive AS a
WHERE a.user_id = @user_id AND a.id > @after
  AND (@status = '' OR CASE WHEN a.status = 'unused' AND a.expires_at <= @now THEN 'expired' ELSE a.status END = @status)
ORDER BY id LIMIT @page_size;

-- name: ExistingCoupons :many
-- Which of the IDs in the JSON array ids name a stored coupon, archived or
-- not.
SELECT c.id FROM coupons AS c WHERE c.id IN (SELECT value FROM json_each(@ids))
UNION ALL
SELECT a.id FROM coupons_archive AS a WHERE a.id IN (SELECT value FROM json_each(@ids));

-- name: InsertIssued :exec
-- Issues coupons of template template_id, claimed at claimed_at and
-- expiring at expires_at: one for each [coupon ID, user ID] pair of the
-- JSON array pairs.
INSERT INTO coupons (id, template_id, user_id, status, claimed_at, expires_at, updated_at, version)
SELECT value ->> 0, @template_id, value ->> 1, 'unused', @claimed_at, @expires_at, @claimed_at, 1 FROM json_each(@pairs);

-- name: LockCoupons :many
-- The coupons of the IDs in the JSON array ids, by ID.
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons WHERE id IN (SELECT value FROM json_each(@ids)) ORDER BY id;

-- name: UnlockCoupons :execrows
-- The coupons of the IDs in the JSON array ids still locked, to status.
UPDATE coupons SET status = @status, order_id = NULL, locked_until = NULL, updated_at = @updated_at, version = version + 1
WHERE id IN (SELECT value FROM json_each(@ids)) AND status = 'locked';

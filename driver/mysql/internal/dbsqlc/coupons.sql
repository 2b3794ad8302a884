-- name: CompareAndSet :execrows
-- The guarded transition: it changes nothing unless the coupon is still
-- in the state and version the decision was made on.
UPDATE coupons SET status = sqlc.arg(status), order_id = sqlc.arg(order_id), locked_until = sqlc.arg(locked_until),
                   updated_at = sqlc.arg(updated_at), version = version + 1
WHERE id = sqlc.arg(id) AND status = sqlc.arg(from_status) AND version = sqlc.arg(version);

-- name: GetCoupon :one
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons WHERE id = ?;

-- name: LockCoupon :one
-- A coupon a transition decides on: held until the transaction ends.
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons WHERE id = ? FOR UPDATE;

-- name: GetArchivedCoupon :one
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons_archive WHERE id = ?;

-- name: UserCoupons :many
-- A page of the user's wallet by ID: a walk of coupons_wallet from after
-- ('' for none) that stops at limit coupons in status ('' for any) as the
-- lazy check reads them at now (an unused coupon at or past expires_at
-- reads expired).
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons
WHERE user_id = sqlc.arg(user_id) AND id > sqlc.arg(after)
  AND (sqlc.arg(status) = '' OR CASE WHEN status = 'unused' AND expires_at <= sqlc.arg(now) THEN 'expired' ELSE status END = sqlc.arg(status))
ORDER BY id LIMIT ?;

-- name: LockedPage :many
-- Locked coupons after (locked_until, id), by locked_until and ID.
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons WHERE status = 'locked' AND locked_until >= sqlc.arg(locked_until) AND (locked_until > sqlc.arg(locked_until) OR id > sqlc.arg(id))
ORDER BY locked_until, id LIMIT ?;

-- name: TerminalCoupons :many
-- Up to limit terminal coupons last changed at or before before, in index
-- order, held, skipping those a transaction holds.
SELECT id FROM coupons WHERE status IN ('used', 'expired', 'voided') AND updated_at <= sqlc.arg(before)
LIMIT ? FOR UPDATE SKIP LOCKED;

-- name: LockCoupons :many
-- The coupons listed, held, by ID.
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons WHERE id IN (sqlc.slice(ids)) ORDER BY id FOR UPDATE;

-- name: UnlockCoupons :execrows
-- The coupons listed still locked, to status. The rows are held
-- (LockCoupons), so the primary key is forced.
UPDATE coupons FORCE INDEX (PRIMARY)
SET status = sqlc.arg(status), order_id = NULL, locked_until = NULL, updated_at = sqlc.arg(updated_at), version = version + 1
WHERE status = 'locked' AND id IN (sqlc.slice(ids));

-- name: ExistingCoupons :many
-- Which of the IDs listed name a stored coupon.
SELECT id FROM coupons WHERE id IN (sqlc.slice(ids));

-- name: ExistingArchivedCoupons :many
-- Which of the IDs listed name an archived coupon.
SELECT id FROM coupons_archive WHERE id IN (sqlc.slice(ids));

-- name: HeldCounts :many
-- How many coupons of the template each of the users listed who holds
-- any holds.
SELECT user_id, count(*) AS n FROM coupons WHERE template_id = sqlc.arg(template_id) AND user_id IN (sqlc.slice(users))
GROUP BY user_id;

-- name: ArchivedHeldCounts :many
-- How many archived coupons of the template each of the users listed who
-- holds any holds.
SELECT user_id, count(*) AS n FROM coupons_archive
WHERE template_id = sqlc.arg(template_id) AND user_id IN (sqlc.slice(users)) GROUP BY user_id;

-- name: ExpireClaimed :execrows
-- The claimed IDs, expired at updated_at. MariaDB refuses IN (SELECT …
-- LIMIT), hence the list. The status guard is redundant with the rows
-- locked, so the primary key is forced: with few unused rows left, the
-- optimizer would otherwise walk a status index it is rewriting.
UPDATE coupons FORCE INDEX (PRIMARY) SET status = 'expired', updated_at = sqlc.arg(updated_at), version = version + 1
WHERE status = 'unused' AND id IN (sqlc.slice(ids));

-- name: UserCouponsWithArchived :many
-- UserCoupons over the coupons and the archive together: a page of each
-- table's wallet index, merged by ID (a sort of the two pages, at most
-- twice the limit). A coupon is in one table or the other, so one moved
-- to the archive between two pages is read once. The limits are one
-- limit, thrice.
(SELECT c.id, c.template_id, c.user_id, c.status, c.claimed_at, c.expires_at, c.order_id, c.locked_until, c.updated_at, c.version
 FROM coupons AS c
 WHERE c.user_id = sqlc.arg(user_id) AND c.id > sqlc.arg(after)
      AND (sqlc.arg(status) = '' OR CASE WHEN c.status = 'unused' AND c.expires_at <= sqlc.arg(now) THEN 'expired' ELSE c.status END = sqlc.arg(status))
 ORDER BY c.id LIMIT ?)
UNION ALL
(SELECT a.id, a.template_id, a.user_id, a.status, a.claimed_at, a.expires_at, a.order_id, a.locked_until, a.updated_at, a.version
 FROM coupons_archive AS a
 WHERE a.user_id = sqlc.arg(user_id) AND a.id > sqlc.arg(after)
      AND (sqlc.arg(status) = '' OR CASE WHEN a.status = 'unused' AND a.expires_at <= sqlc.arg(now) THEN 'expired' ELSE a.status END = sqlc.arg(status))
 ORDER BY a.id LIMIT ?)
ORDER BY id LIMIT ?;

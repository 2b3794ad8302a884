-- name: GetCoupon :one
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons WHERE id = @id;

-- name: GetCouponForUpdate :one
-- A transition decides on the row it holds: a racer waits here, then
-- decides on what the winner left.
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons WHERE id = @id FOR NO KEY UPDATE;

-- name: GetArchivedCoupon :one
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons_archive WHERE id = @id;

-- name: CompareAndSet :execrows
-- The guarded transition: it changes nothing unless the coupon is still
-- in the state and version the decision was made on.
UPDATE coupons SET status = @status, order_id = @order_id, locked_until = @locked_until, updated_at = @updated_at,
                   version = version + 1
WHERE id = @id AND status = @from_status AND version = @from_version;

-- name: TakeIssues :execrows
-- Counts n more coupons of the template issued, unless that passes the
-- total.
UPDATE templates SET issued = issued + @n
WHERE id = @id AND (total = 0 OR issued + @n <= total);

-- name: LockedPage :many
-- Locked coupons after (locked_until, id), by locked_until and ID.
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons WHERE status = 'locked' AND locked_until >= @locked_until AND (locked_until > @locked_until OR id > @id)
ORDER BY locked_until, id LIMIT @page_size;

-- name: UserCoupons :many
-- A page of the user's wallet by ID: a walk of coupons_wallet from after
-- ('' for none) that stops at page_size coupons in status ('' for any) as
-- the lazy check reads them at now (an unused coupon at or past
-- expires_at reads expired).
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons
WHERE user_id = @user_id AND id > @after
  AND (@status::text = '' OR CASE WHEN status = 'unused' AND expires_at <= @now THEN 'expired' ELSE status END = @status)
ORDER BY id LIMIT @page_size;

-- name: LockCoupons :many
-- The coupons of ids a batch of orders holds, held in ID order.
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons WHERE id = ANY(@ids::text[]) ORDER BY id FOR NO KEY UPDATE;

-- name: UnlockCoupons :execrows
-- The coupons of ids still locked, given back to status; the caller
-- holds them (LockCoupons).
UPDATE coupons SET status = @status, order_id = NULL, locked_until = NULL, updated_at = @now, version = version + 1
WHERE id = ANY(@ids::text[]) AND status = 'locked';

-- name: LocksDue :many
-- Up to $2 locked coupons of a range of shards ($3, $4) due at $1. Held
-- until the batch commits; rows a user's transition holds are left for
-- the next batch. The drain's text, as it was by name.
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons
WHERE status = 'locked' AND locked_until <= $1 AND shard BETWEEN $3 AND $4
ORDER BY locked_until LIMIT $2
FOR NO KEY UPDATE SKIP LOCKED;

-- name: NextExpiry :one
-- The earliest unused coupon's expiry in a range of shards.
SELECT expires_at FROM coupons WHERE status = 'unused' AND shard BETWEEN $1 AND $2 ORDER BY expires_at LIMIT 1;

-- name: NextRelease :one
-- The earliest locked coupon's lock end in a range of shards.
SELECT locked_until FROM coupons WHERE status = 'locked' AND shard BETWEEN $1 AND $2 ORDER BY locked_until LIMIT 1;

-- name: UserCouponsWithArchived :many
-- UserCoupons's page over the coupons and the archive together: a page of
-- each table's wallet index, merged by ID. A coupon is in one table or the
-- other, so one moved to the archive between two pages is read once.
(SELECT c.id, c.template_id, c.user_id, c.status, c.claimed_at, c.expires_at, c.order_id, c.locked_until, c.updated_at, c.version
 FROM coupons AS c
 WHERE c.user_id = @user_id AND c.id > @after
      AND (@status::text = '' OR CASE WHEN c.status = 'unused' AND c.expires_at <= @now THEN 'expired' ELSE c.status END = @status)
 ORDER BY c.id LIMIT @page_size)
UNION ALL
(SELECT a.id, a.template_id, a.user_id, a.status, a.claimed_at, a.expires_at, a.order_id, a.locked_until, a.updated_at, a.version
 FROM coupons_archive AS a
 WHERE a.user_id = @user_id AND a.id > @after
      AND (@status::text = '' OR CASE WHEN a.status = 'unused' AND a.expires_at <= @now THEN 'expired' ELSE a.status END = @status)
 ORDER BY a.id LIMIT @page_size)
ORDER BY id LIMIT @page_size;

-- name: ExistingCoupons :many
-- Which of the IDs ids name a stored coupon, archived or not.
SELECT c.id FROM coupons AS c WHERE c.id = ANY(@ids::text[])
UNION ALL
SELECT a.id FROM coupons_archive AS a WHERE a.id = ANY(@ids::text[]);

-- name: HeldCounts :many
-- How many coupons of template template_id each user of users holds,
-- archived ones too. (The casts type the columns for sqlc.)
SELECT u::text AS user_id, ((SELECT count(*) FROM coupons AS c WHERE c.user_id = u AND c.template_id = @template_id)
        + (SELECT count(*) FROM coupons_archive AS a WHERE a.user_id = u AND a.template_id = @template_id))::bigint AS n
FROM unnest(@users::text[]) AS u;

-- name: ExpireDue :many
-- $1 now, $2 limit, $3, $4 a range of shards: a range on the shard,
-- after the due time in the index, is tested inside the index and keeps
-- the walk in due order; a list (= ANY) would have PostgreSQL before 17
-- sort the whole due range of the shards instead. Claims the oldest due
-- unused coupons over the partial index, skipping rows another drain or a
-- user's transition holds. The claim is LIMIT then FOR UPDATE SKIP
-- LOCKED, and it is matched with = ANY(ARRAY(...)): with IN (SELECT ...
-- LIMIT) PostgreSQL may plan a scan of coupons per batch. The drain's
-- text, as it was by name, with the claim's table aliased for sqlc.
UPDATE coupons SET status = 'expired', updated_at = $1, version = version + 1
WHERE id = ANY(ARRAY(
        SELECT c.id FROM coupons AS c
        WHERE c.status = 'unused' AND c.expires_at <= $1 AND c.shard BETWEEN $3 AND $4
        ORDER BY c.expires_at LIMIT $2
        FOR UPDATE SKIP LOCKED))
  AND status = 'unused' AND expires_at <= $1
RETURNING id, template_id, user_id, expires_at;

-- name: DueBacklog :one
SELECT ((SELECT count(*) FROM coupons AS c WHERE c.status = 'unused' AND c.expires_at <= $1)
      + (SELECT count(*) FROM coupons AS l WHERE l.status = 'locked' AND l.locked_until <= $1)
      + (SELECT count(*) FROM orders AS o WHERE o.status = 'unpaid' AND o.deadline <= $1)
      + (SELECT count(*) FROM reminders AS r WHERE r.status = 'planned' AND r.due_at <= $1))::bigint AS backlog;

-- name: ExpiryFrom :one
-- The first unused coupon's expiry at or after $1; no row if none. (What
-- PostgreSQL plans min() as, written so that sqlc types it.)
SELECT expires_at FROM coupons WHERE status = 'unused' AND expires_at >= $1 ORDER BY expires_at LIMIT 1;

-- name: ReleaseFrom :one
-- As ExpiryFrom, for the locks.
SELECT locked_until FROM coupons WHERE status = 'locked' AND locked_until >= $1 ORDER BY locked_until LIMIT 1;

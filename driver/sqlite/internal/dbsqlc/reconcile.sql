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

-- name: ExpiryFrom :one
-- The first unused coupon's expiry at or after from; no row if none. (The
-- walk SQLite plans for min() over the due index, written so that sqlc
-- types it.)
SELECT expires_at FROM coupons WHERE status = 'unused' AND expires_at >= @from ORDER BY expires_at LIMIT 1;

-- name: ReleaseFrom :one
-- As ExpiryFrom, for the locks.
SELECT locked_until FROM coupons WHERE status = 'locked' AND locked_until >= @from ORDER BY locked_until LIMIT 1;

-- name: DeadlineFrom :one
-- As ExpiryFrom, for the unpaid orders of the shards (as ExpireDue's).
SELECT deadline FROM orders
WHERE status = 'unpaid' AND deadline >= @from AND (@shards = '' OR lapse_shard(id) IN (SELECT value FROM json_each(@shards)))
ORDER BY deadline LIMIT 1;

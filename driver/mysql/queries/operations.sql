-- name: InsertOperation
INSERT INTO operations (id, kind, target, args, counts, actor, state, last_id, holder,
                        created_at, started_at, finished_at, lease_until, done, total)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- name: GetOperation
SELECT id, kind, target, args, counts, actor, state, last_id, holder,
       created_at, started_at, finished_at, lease_until, done, total
FROM operations WHERE id = ?;

-- name: LockOperation
-- A batch holds its operation: another instance's batch waits, then
-- finds it no longer holds the lease.
SELECT id, kind, target, args, counts, actor, state, last_id, holder,
       created_at, started_at, finished_at, lease_until, done, total
FROM operations WHERE id = ? FOR UPDATE;

-- name: SetOperation
-- counts, state, last_id, holder, started_at, finished_at, lease_until,
-- done, total, then the id.
UPDATE operations SET counts = ?, state = ?, last_id = ?, holder = ?, started_at = ?,
                      finished_at = ?, lease_until = ?, done = ?, total = ?
WHERE id = ?;

-- name: OperationsDue
-- holder, now, limit: running operations nobody else holds.
SELECT id FROM operations
WHERE state = 'running' AND (holder = ? OR holder = '' OR lease_until IS NULL OR lease_until <= ?)
ORDER BY id LIMIT ?;

-- name: CouponsAfter
-- template, the ID after which the page starts, the greatest ID it may
-- hold, its size: held. Left to
-- itself MariaDB walks (template_id) from the template's first coupon
-- ("ref", the cursor a filter), so each page cost more than the last (a
-- page of 100 at 175,000 in: 219 ms, 2,022 pages), or walks the primary
-- key through other templates' coupons; forced, it seeks (template_id,
-- id) to the cursor (4 pages, 0.06 ms).
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons FORCE INDEX (coupons_template) WHERE template_id = ? AND id > ? AND id <= ? ORDER BY id LIMIT ? FOR UPDATE;

-- name: UsersCoupons
-- the greatest ID, then the user IDs: their coupons up to that ID, held.
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons WHERE id <= ? AND user_id IN (?, ...) FOR UPDATE;

-- name: VoidCoupons
-- now, now, then the IDs: those still unused at now. The rows are held
-- (CouponsAfter), so the primary key is forced, as in ExpireClaimed.
UPDATE coupons FORCE INDEX (PRIMARY)
SET status = 'voided', order_id = NULL, locked_until = NULL, updated_at = ?, version = version + 1
WHERE status = 'unused' AND expires_at > ? AND id IN (?, ...);

-- name: ExtendCoupons
-- the new expires_at or NULL to move it by the microseconds next, now,
-- then the IDs: those unused or locked.
UPDATE coupons FORCE INDEX (PRIMARY)
SET expires_at = COALESCE(?, expires_at + INTERVAL ? MICROSECOND), updated_at = ?, version = version + 1
WHERE status IN ('unused', 'locked') AND id IN (?, ...);

-- name: PutPendingVoid
INSERT IGNORE INTO pending_voids (coupon_id, operation, reason, actor) VALUES (?, ?, ?, ?);

-- name: GetPendingVoid
SELECT coupon_id, operation, reason, actor FROM pending_voids WHERE coupon_id = ? FOR UPDATE;

-- name: DeletePendingVoid
DELETE FROM pending_voids WHERE coupon_id = ?;

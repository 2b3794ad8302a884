-- The drains take a range of shards: a range on the shard, after the due
-- time in the index, is tested inside the index and keeps the walk in due
-- order; a list (= ANY) would have PostgreSQL before 17 sort the whole due
-- range of the shards instead.

-- name: ExpireDue
-- $1 now, $2 limit, $3, $4 a range of shards. Claims the oldest due unused coupons over the partial
-- index, skipping rows another drain or a user's transition holds. The
-- claim is LIMIT then FOR UPDATE SKIP LOCKED, and it is matched with
-- = ANY(ARRAY(...)): with IN (SELECT ... LIMIT) PostgreSQL may plan a scan
-- of coupons per batch.
UPDATE coupons SET status = 'expired', updated_at = $1, version = version + 1
WHERE id = ANY(ARRAY(
        SELECT id FROM coupons
        WHERE status = 'unused' AND expires_at <= $1 AND shard BETWEEN $3 AND $4
        ORDER BY expires_at LIMIT $2
        FOR UPDATE SKIP LOCKED))
  AND status = 'unused' AND expires_at <= $1
RETURNING id, template_id, user_id, expires_at;

-- name: DueBacklog
SELECT (SELECT count(*) FROM coupons WHERE status = 'unused' AND expires_at <= $1)
     + (SELECT count(*) FROM coupons WHERE status = 'locked' AND locked_until <= $1)
     + (SELECT count(*) FROM orders WHERE status = 'unpaid' AND deadline <= $1)
     + (SELECT count(*) FROM reminders WHERE status = 'planned' AND due_at <= $1);

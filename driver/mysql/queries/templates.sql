-- name: InsertCounts
-- A zero count per state and slot: every later change is then an UPDATE,
-- which cannot deadlock the way two concurrent upserts of a new row can.
INSERT INTO template_counts (template_id, status, slot, n) VALUES (?, ?, ?, 0), ...;

-- name: TemplateIssued
SELECT issued FROM templates WHERE id = ?;

-- name: GetCounts
SELECT status, CAST(SUM(n) AS SIGNED) FROM template_counts WHERE template_id = ? GROUP BY status HAVING SUM(n) <> 0;

-- name: CountDueUnused
-- Unused coupons of a template that the lazy check reads as expired: the
-- due range of every shard (store.Shards is 16; see drain.sql).
SELECT count(*) FROM coupons FORCE INDEX (coupons_due)
WHERE status = 'unused' AND expires_at <= ? AND template_id = ?
  AND shard IN (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);

-- name: TakeIssues
-- Counts ?2 more coupons of template ?1 issued, unless that passes the total.
UPDATE templates SET issued = issued + ?2
WHERE id = ?1 AND (total = 0 OR issued + ?2 <= total);

-- name: AddCount
INSERT INTO template_counts (template_id, status, n) VALUES (?, ?, ?)
ON CONFLICT (template_id, status) DO UPDATE SET n = n + excluded.n;

-- name: GetCounts
SELECT status, n FROM template_counts WHERE template_id = ?;

-- name: CountDueUnused
-- Unused coupons of a template that the lazy check reads as expired: few,
-- through the due index, where coupons_template would walk them all.
SELECT count(*) FROM coupons INDEXED BY coupons_due
WHERE status = 'unused' AND expires_at <= ? AND template_id = ?;

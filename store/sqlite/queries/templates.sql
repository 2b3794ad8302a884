-- name: InsertTemplate
INSERT INTO templates (id, name, value, min_spend, starts_at, ends_at, duration_ms,
                       per_user_limit, total, reminders, created_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- name: GetTemplate
SELECT id, name, value, min_spend, starts_at, ends_at, duration_ms,
       per_user_limit, total, reminders, created_at
FROM templates WHERE id = ?;

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
-- Unused coupons of a template that the lazy check reads as expired.
SELECT count(*) FROM coupons
WHERE status = 'unused' AND expires_at <= ? AND template_id = ?;

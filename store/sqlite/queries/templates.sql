-- name: InsertTemplate
INSERT INTO templates (id, name, value, min_spend, starts_at, ends_at, duration_ms,
                       per_user_limit, total, reminders, created_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- name: GetTemplate
SELECT id, name, value, min_spend, starts_at, ends_at, duration_ms,
       per_user_limit, total, reminders, created_at
FROM templates WHERE id = ?;

-- name: TakeIssue
-- Counts one more coupon issued, unless the total is all issued.
UPDATE templates SET issued = issued + 1
WHERE id = ? AND (total = 0 OR issued < total);

-- name: AddCount
INSERT INTO template_counts (template_id, status, n) VALUES (?, ?, ?)
ON CONFLICT (template_id, status) DO UPDATE SET n = n + excluded.n;

-- name: GetCounts
SELECT status, n FROM template_counts WHERE template_id = ?;

-- name: CountDueUnused
-- Unused coupons of a template that the lazy check reads as expired.
SELECT count(*) FROM coupons
WHERE status = 'unused' AND expires_at <= ? AND template_id = ?;

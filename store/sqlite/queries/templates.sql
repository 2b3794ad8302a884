-- name: InsertTemplate
INSERT INTO templates (id, name, value, min_spend, starts_at, ends_at, duration_ms,
                       per_user_limit, total, reminders, created_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- name: GetTemplate
SELECT id, name, value, min_spend, starts_at, ends_at, duration_ms,
       per_user_limit, total, reminders, created_at, closed_at, version
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
-- Unused coupons of a template that the lazy check reads as expired: few,
-- through the due index, where coupons_template would walk them all.
SELECT count(*) FROM coupons INDEXED BY coupons_due
WHERE status = 'unused' AND expires_at <= ? AND template_id = ?;

-- name: ListTemplates
-- ?1 the ID after which the page starts ('' for the first), ?2 its size.
SELECT id, name, value, min_spend, starts_at, ends_at, duration_ms,
       per_user_limit, total, reminders, created_at, closed_at, version
FROM templates WHERE id > ?1 ORDER BY id LIMIT ?2;

-- name: SetTemplate
-- A compare-and-set on the version read, refused if the coupons issued
-- pass the new total. ?1 id, ?2 version read, ?3 name, ?4 value, ?5 total,
-- ?6 reminders, ?7 closed_at.
UPDATE templates SET name = ?3, value = ?4, total = ?5, reminders = ?6, closed_at = ?7, version = version + 1
WHERE id = ?1 AND version = ?2 AND (?5 = 0 OR issued <= ?5);

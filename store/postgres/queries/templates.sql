-- name: InsertTemplate
INSERT INTO templates (id, name, value, min_spend, starts_at, ends_at, duration,
                       per_user_limit, total, reminders, created_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11);

-- name: GetTemplate
SELECT id, name, value, min_spend, starts_at, ends_at, duration,
       per_user_limit, total, reminders, created_at, closed_at, version
FROM templates WHERE id = $1;

-- name: GetTemplateForClaim
-- Claims of one template queue here, so that the per-user count and the
-- total are checked on what the previous claim committed.
SELECT id, name, value, min_spend, starts_at, ends_at, duration,
       per_user_limit, total, reminders, created_at, closed_at, version
FROM templates WHERE id = $1 FOR NO KEY UPDATE;

-- name: TakeIssues
-- Counts $2 more coupons of template $1 issued, unless that passes the total.
UPDATE templates SET issued = issued + $2
WHERE id = $1 AND (total = 0 OR issued + $2 <= total);

-- name: TemplateIssued
SELECT issued FROM templates WHERE id = $1;

-- name: AddCounts
-- $1 template IDs, $2 states, $3 deltas, sorted by (template, state) so
-- that transactions lock count rows in one order and cannot deadlock; $4
-- the transaction's slot (see 0011_count_slots.sql).
INSERT INTO template_counts (template_id, status, slot, n)
SELECT u.template_id, u.status, $4, u.n FROM unnest($1::text[], $2::text[], $3::bigint[]) AS u(template_id, status, n)
ON CONFLICT (template_id, status, slot) DO UPDATE SET n = template_counts.n + excluded.n;

-- name: GetCounts
SELECT status, sum(n)::bigint FROM template_counts WHERE template_id = $1 GROUP BY status;

-- name: CountDueUnused
-- Unused coupons of a template that the lazy check reads as expired.
SELECT count(*) FROM coupons
WHERE status = 'unused' AND expires_at <= $1 AND template_id = $2;

-- name: ListTemplates
-- $1 the ID after which the page starts ('' for the first), $2 its size.
SELECT id, name, value, min_spend, starts_at, ends_at, duration,
       per_user_limit, total, reminders, created_at, closed_at, version
FROM templates WHERE id > $1 ORDER BY id LIMIT $2;

-- name: SetTemplate
-- A compare-and-set on the version read, refused if the coupons issued
-- pass the new total. $1 id, $2 version read, $3 name, $4 value, $5 total,
-- $6 reminders, $7 closed_at.
UPDATE templates SET name = $3, value = $4, total = $5, reminders = $6, closed_at = $7, version = version + 1
WHERE id = $1 AND version = $2 AND ($5 = 0 OR issued <= $5);

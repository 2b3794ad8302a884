-- name: InsertTemplate :exec
INSERT INTO templates (id, name, value, min_spend, starts_at, ends_at, duration,
                       per_user_limit, total, reminders, created_at)
VALUES (@id, @name, @value, @min_spend, @starts_at, @ends_at, @duration,
        @per_user_limit, @total, @reminders, @created_at);

-- name: GetTemplate :one
SELECT id, name, value, min_spend, starts_at, ends_at, duration,
       per_user_limit, total, reminders, created_at, closed_at, version
FROM templates WHERE id = @id;

-- name: GetTemplateForClaim :one
-- Claims of one template queue here, so that the per-user count and the
-- total are checked on what the previous claim committed.
SELECT id, name, value, min_spend, starts_at, ends_at, duration,
       per_user_limit, total, reminders, created_at, closed_at, version
FROM templates WHERE id = @id FOR NO KEY UPDATE;

-- name: ListTemplates :many
-- A page of templates after the ID after ('' for the first).
SELECT id, name, value, min_spend, starts_at, ends_at, duration,
       per_user_limit, total, reminders, created_at, closed_at, version
FROM templates WHERE id > @after ORDER BY id LIMIT @page_size;

-- name: SetTemplate :execrows
-- A compare-and-set on the version read, refused if the coupons issued
-- pass the new total.
UPDATE templates SET name = @name, value = @value, total = @total, reminders = @reminders,
                     closed_at = @closed_at, version = version + 1
WHERE id = @id AND version = @version AND (@total = 0 OR issued <= @total);

-- name: GetCounts :many
-- A template's counts by state, summed over their slots.
SELECT status, sum(n)::bigint AS n FROM template_counts WHERE template_id = @template_id GROUP BY status;

-- name: CountDueUnused :one
-- Unused coupons of a template that the lazy check reads as expired.
SELECT count(*) FROM coupons
WHERE status = 'unused' AND expires_at <= @now AND template_id = @template_id;

-- name: TemplateIssued :one
SELECT issued FROM templates WHERE id = @id;

-- name: NewestTemplates :many
-- A page of templates newest first, down the primary key: before the ID
-- before.
SELECT id, name, value, min_spend, starts_at, ends_at, duration,
       per_user_limit, total, reminders, created_at, closed_at, version
FROM templates WHERE id < @before ORDER BY id DESC LIMIT @page_size;

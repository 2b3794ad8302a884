-- name: InsertTemplate :exec
INSERT INTO templates (id, name, value, min_spend, starts_at, ends_at, duration_ms,
                       per_user_limit, total, reminders, created_at)
VALUES (@id, @name, @value, @min_spend, @starts_at, @ends_at, @duration_ms,
        @per_user_limit, @total, @reminders, @created_at);

-- name: GetTemplate :one
SELECT id, name, value, min_spend, starts_at, ends_at, duration_ms,
       per_user_limit, total, reminders, created_at, closed_at, version
FROM templates WHERE id = @id;

-- name: ListTemplates :many
-- A page of templates after the ID after ('' for the first).
SELECT id, name, value, min_spend, starts_at, ends_at, duration_ms,
       per_user_limit, total, reminders, created_at, closed_at, version
FROM templates WHERE id > @after ORDER BY id LIMIT @page_size;

-- name: SetTemplate :execrows
-- A compare-and-set on the version read, refused if the coupons issued
-- pass the new total.
UPDATE templates SET name = @name, value = @value, total = @total, reminders = @reminders,
                     closed_at = @closed_at, version = version + 1
WHERE id = @id AND version = @version AND (@total = 0 OR issued <= @total);

-- name: TakeIssues :execrows
-- Counts n more coupons of the template issued, unless that passes the total.
UPDATE templates SET issued = issued + @n
WHERE id = @id AND (total = 0 OR issued + @n <= total);

-- name: AddCount :exec
INSERT INTO template_counts (template_id, status, n) VALUES (@template_id, @status, @n)
ON CONFLICT (template_id, status) DO UPDATE SET n = n + excluded.n;

-- name: GetCounts :many
SELECT status, n FROM template_counts WHERE template_id = @template_id;

-- name: CountDueUnused :one
-- Unused coupons of a template that the lazy check reads as expired: few,
-- through the due index, where coupons_template would walk them all.
SELECT count(*) FROM coupons INDEXED BY coupons_due
WHERE status = 'unused' AND expires_at <= @now AND template_id = @template_id;

-- name: TemplateIssued :one
SELECT issued FROM templates WHERE id = @id;

-- name: NewestTemplates :many
-- A page of templates newest first, down the primary key: before the ID
-- before.
SELECT id, name, value, min_spend, starts_at, ends_at, duration_ms,
       per_user_limit, total, reminders, created_at, closed_at, version
FROM templates WHERE id < @before ORDER BY id DESC LIMIT @page_size;

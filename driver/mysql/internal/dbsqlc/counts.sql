-- name: TakeIssues :execrows
-- Counts n more coupons issued, unless that passes the total.
UPDATE templates SET issued = issued + sqlc.arg(n)
WHERE id = sqlc.arg(id) AND (total = 0 OR issued + sqlc.arg(n) <= total);

-- name: AddCount :exec
-- The transaction's slot: see 0011_count_slots.sql.
UPDATE template_counts SET n = n + sqlc.arg(n) WHERE template_id = sqlc.arg(template_id) AND status = sqlc.arg(status) AND slot = sqlc.arg(slot);

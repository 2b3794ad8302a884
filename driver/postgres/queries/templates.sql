-- name: AddCounts
-- $1 template IDs, $2 states, $3 deltas, sorted by (template, state) so
-- that transactions lock count rows in one order and cannot deadlock; $4
-- the transaction's slot (see 0011_count_slots.sql).
INSERT INTO template_counts (template_id, status, slot, n)
SELECT u.template_id, u.status, $4, u.n FROM unnest($1::text[], $2::text[], $3::bigint[]) AS u(template_id, status, n)
ON CONFLICT (template_id, status, slot) DO UPDATE SET n = template_counts.n + excluded.n;

-- name: NewestTemplates
-- $1 the ID before which the page starts, $2 the limit: newest first,
-- down the primary key.
SELECT id, name, value, min_spend, starts_at, ends_at, duration,
       per_user_limit, total, reminders, created_at, closed_at, version
FROM templates WHERE id < $1 ORDER BY id DESC LIMIT $2;

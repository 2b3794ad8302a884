-- name: AddCounts
-- $1 template IDs, $2 states, $3 deltas, sorted by (template, state) so
-- that transactions lock count rows in one order and cannot deadlock; $4
-- the transaction's slot (see 0011_count_slots.sql).
INSERT INTO template_counts (template_id, status, slot, n)
SELECT u.template_id, u.status, $4, u.n FROM unnest($1::text[], $2::text[], $3::bigint[]) AS u(template_id, status, n)
ON CONFLICT (template_id, status, slot) DO UPDATE SET n = template_counts.n + excluded.n;

-- name: InsertTimers
-- $1 due buckets, $2 kinds, sorted, so that transactions wait on each
-- other's new timer rows in one order and cannot deadlock.
INSERT INTO timers (due_at, kind)
SELECT * FROM unnest($1::timestamptz[], $2::text[])
ON CONFLICT DO NOTHING;

-- name: DueTimers
SELECT kind, due_at FROM timers WHERE due_at <= $1 ORDER BY due_at LIMIT $2;

-- name: DeleteTimers
DELETE FROM timers WHERE kind = $1 AND due_at <= $2;

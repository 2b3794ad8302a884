-- name: InsertTimers
-- $1 due buckets, $2 kinds, sorted, so that transactions wait on each
-- other's new timer rows in one order and cannot deadlock.
INSERT INTO timers (due_at, kind)
SELECT * FROM unnest($1::timestamptz[], $2::text[])
ON CONFLICT DO NOTHING;

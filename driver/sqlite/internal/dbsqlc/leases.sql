-- Instances. Every time here is the database's clock (the view clock),
-- in unix milliseconds.

-- name: SeenInstance :exec
-- The instance holder is alive now.
INSERT INTO instances (holder, seen_at) VALUES (@holder, (SELECT now FROM clock))
ON CONFLICT (holder) DO UPDATE SET seen_at = excluded.seen_at;

-- name: MeasuredSkew :exec
-- The instance holder is alive now, and measured its clock skew skew_ms now.
INSERT INTO instances (holder, seen_at, skew_ms, skew_at)
VALUES (@holder, (SELECT now FROM clock), @skew_ms, (SELECT now FROM clock))
ON CONFLICT (holder) DO UPDATE SET seen_at = excluded.seen_at, skew_ms = excluded.skew_ms, skew_at = excluded.skew_at;

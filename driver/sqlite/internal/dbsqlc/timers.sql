-- name: InsertTimer :exec
INSERT INTO timers (due_at, kind) VALUES (@due_at, @kind) ON CONFLICT DO NOTHING;

-- name: DueTimers :many
SELECT kind, due_at FROM timers WHERE due_at <= @before ORDER BY due_at LIMIT @page_size;

-- name: DeleteTimers :exec
DELETE FROM timers WHERE kind = @kind AND due_at <= @through;

-- name: HasTimer :one
SELECT count(*) FROM timers WHERE due_at = @due_at AND kind = @kind;

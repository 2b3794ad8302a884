-- name: DueTimers :many
SELECT kind, due_at FROM timers WHERE due_at <= @before ORDER BY due_at LIMIT @lim;

-- name: DeleteTimers :exec
DELETE FROM timers WHERE kind = @kind AND due_at <= @through;

-- name: HasTimer :one
SELECT EXISTS (SELECT 1 FROM timers WHERE due_at = @due_at AND kind = @kind);

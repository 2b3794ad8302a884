-- name: DueTimers :many
-- LIMIT takes no sqlc.arg in the MySQL parser.
SELECT kind, due_at FROM timers WHERE due_at <= sqlc.arg(before) ORDER BY due_at LIMIT ?;

-- name: DeleteTimers :exec
DELETE FROM timers WHERE kind = sqlc.arg(kind) AND due_at <= sqlc.arg(through);

-- name: HasTimer :one
SELECT EXISTS (SELECT 1 FROM timers WHERE due_at = sqlc.arg(due_at) AND kind = sqlc.arg(kind));

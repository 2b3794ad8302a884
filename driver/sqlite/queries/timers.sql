-- name: InsertTimer
INSERT INTO timers (due_at, kind) VALUES (?, ?) ON CONFLICT DO NOTHING;

-- name: DueTimers
SELECT kind, due_at FROM timers WHERE due_at <= ? ORDER BY due_at LIMIT ?;

-- name: DeleteTimers
DELETE FROM timers WHERE kind = ? AND due_at <= ?;

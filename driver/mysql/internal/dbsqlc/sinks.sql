-- name: ReplayDeadLetters :execrows
UPDATE dead_letters SET queued = true WHERE sink = sqlc.arg(sink);

-- name: PruneEvents :exec
-- From the front only, so that OutboxSize stays a span.
DELETE FROM events WHERE seq <= sqlc.arg(through);

-- name: DeadLetters :many
-- A page of a sink's dead letters after a position, only the queued ones
-- with queued_only (queued >= true), or all (queued >= false).
SELECT seq, id, type, subject, time, data, attempts, error, failed_at, queued
FROM dead_letters
WHERE sink = sqlc.arg(sink) AND seq > sqlc.arg(after) AND queued >= sqlc.arg(queued_only)
ORDER BY seq LIMIT ?;

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

-- name: AdvanceSink :exec
-- A cursor only moves forward.
INSERT INTO sinks (name, position) VALUES (sqlc.arg(name), sqlc.arg(position))
ON DUPLICATE KEY UPDATE position = greatest(position, VALUES(position));

-- name: PutDeadLetter :exec
INSERT INTO dead_letters (sink, seq, id, type, subject, time, data, attempts, error, failed_at, queued)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, false)
ON DUPLICATE KEY UPDATE
    attempts = VALUES(attempts), error = VALUES(error), failed_at = VALUES(failed_at), queued = false;

-- name: DeleteDeadLetter :exec
DELETE FROM dead_letters WHERE sink = ? AND seq = ?;

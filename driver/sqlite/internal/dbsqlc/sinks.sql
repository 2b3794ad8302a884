-- name: DeadLetters :many
SELECT seq, id, type, subject, time, data, attempts, error, failed_at, queued
FROM dead_letters
WHERE sink = @sink AND seq > @after AND (queued = 1 OR @queued_only = 0)
ORDER BY seq LIMIT @page_size;

-- name: ReplayDeadLetters :execrows
UPDATE dead_letters SET queued = 1 WHERE sink = @sink;

-- name: AdvanceSink :exec
-- A cursor only moves forward.
INSERT INTO sinks (name, position) VALUES (@name, @position)
ON CONFLICT (name) DO UPDATE SET position = max(position, excluded.position);

-- name: PutDeadLetter :exec
INSERT INTO dead_letters (sink, seq, id, type, subject, time, data, attempts, error, failed_at, queued)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)
ON CONFLICT (sink, seq) DO UPDATE SET
    attempts = excluded.attempts, error = excluded.error, failed_at = excluded.failed_at, queued = 0;

-- name: DeleteDeadLetter :exec
DELETE FROM dead_letters WHERE sink = ? AND seq = ?;

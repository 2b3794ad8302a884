-- name: ReplayDeadLetters :execrows
UPDATE dead_letters SET queued = true WHERE sink = @sink;

-- name: DeadLetters :many
SELECT seq, id, type, subject, time, data, attempts, error, failed_at, queued
FROM dead_letters
WHERE sink = @sink AND seq > @after AND (queued OR NOT @queued_only::boolean)
ORDER BY seq LIMIT @page_size;

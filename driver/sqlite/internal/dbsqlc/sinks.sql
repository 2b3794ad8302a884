-- name: DeadLetters :many
SELECT seq, id, type, subject, time, data, attempts, error, failed_at, queued
FROM dead_letters
WHERE sink = @sink AND seq > @after AND (queued = 1 OR @queued_only = 0)
ORDER BY seq LIMIT @page_size;

-- name: ReplayDeadLetters :execrows
UPDATE dead_letters SET queued = 1 WHERE sink = @sink;

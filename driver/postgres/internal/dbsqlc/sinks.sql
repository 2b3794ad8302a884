-- name: ReplayDeadLetters :execrows
UPDATE dead_letters SET queued = true WHERE sink = @sink;

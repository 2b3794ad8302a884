-- name: ReplayDeadLetters :execrows
UPDATE dead_letters SET queued = true WHERE sink = sqlc.arg(sink);

-- name: PruneEvents :exec
-- From the front only, so that OutboxSize stays a span.
DELETE FROM events WHERE seq <= sqlc.arg(through);

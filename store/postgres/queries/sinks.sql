-- name: SinkState
WITH p AS (SELECT coalesce((SELECT position FROM sinks WHERE name = $1), 0) AS position)
SELECT p.position,
       (SELECT count(*) FROM events WHERE seq > p.position),
       (SELECT count(*) FROM dead_letters WHERE sink = $1),
       (SELECT count(*) FROM dead_letters WHERE sink = $1 AND queued)
FROM p;

-- name: AdvanceSink
-- A cursor only moves forward.
INSERT INTO sinks (name, position) VALUES ($1, $2)
ON CONFLICT (name) DO UPDATE SET position = greatest(sinks.position, excluded.position);

-- name: PutDeadLetter
INSERT INTO dead_letters (sink, seq, id, type, subject, time, data, attempts, error, failed_at, queued)
VALUES ($1, $2, $3, $4, $5, $6, $7::text::json, $8, $9, $10, false)
ON CONFLICT (sink, seq) DO UPDATE SET
    attempts = excluded.attempts, error = excluded.error, failed_at = excluded.failed_at, queued = false;

-- name: DeleteDeadLetter
DELETE FROM dead_letters WHERE sink = $1 AND seq = $2;

-- name: DeadLetters
SELECT seq, id, type, subject, time, data, attempts, error, failed_at, queued
FROM dead_letters
WHERE sink = $1 AND seq > $2 AND (queued OR NOT $3)
ORDER BY seq LIMIT $4;

-- name: ReplayDeadLetters
UPDATE dead_letters SET queued = true WHERE sink = $1;

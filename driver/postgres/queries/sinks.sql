-- name: SinkState
-- The lag: positions are dense, so the span from the position (or the
-- front) to the newest, and the events not numbered yet.
WITH p AS (SELECT coalesce((SELECT position FROM sinks WHERE name = $1), 0) AS position)
SELECT p.position,
       coalesce((SELECT max(seq) FROM events)
                - greatest(p.position, (SELECT seq - n FROM events WHERE seq IS NOT NULL ORDER BY seq LIMIT 1)), 0)
           + (SELECT coalesce(sum(n), 0) FROM events WHERE seq IS NULL),
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

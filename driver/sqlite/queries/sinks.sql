-- name: SinkState
-- The lag: positions are dense, so the span from the position (or the
-- front) to the newest.
WITH p AS (SELECT coalesce((SELECT position FROM sinks WHERE name = ?1), 0) AS position)
SELECT p.position,
       coalesce((SELECT max(seq) FROM events)
                - max(p.position, (SELECT seq - n FROM events ORDER BY seq LIMIT 1)), 0),
       (SELECT count(*) FROM dead_letters WHERE sink = ?1),
       (SELECT count(*) FROM dead_letters WHERE sink = ?1 AND queued = 1)
FROM p;

-- name: AdvanceSink
-- A cursor only moves forward.
INSERT INTO sinks (name, position) VALUES (?, ?)
ON CONFLICT (name) DO UPDATE SET position = max(position, excluded.position);

-- name: PutDeadLetter
INSERT INTO dead_letters (sink, seq, id, type, subject, time, data, attempts, error, failed_at, queued)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)
ON CONFLICT (sink, seq) DO UPDATE SET
    attempts = excluded.attempts, error = excluded.error, failed_at = excluded.failed_at, queued = 0;

-- name: DeleteDeadLetter
DELETE FROM dead_letters WHERE sink = ? AND seq = ?;

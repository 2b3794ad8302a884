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

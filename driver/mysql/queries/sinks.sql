-- name: SinkState
-- The lag: positions are dense, so the span from the position (or the
-- front) to the newest, and the events not numbered yet.
SELECT p.position,
       COALESCE((SELECT MAX(seq) FROM events)
                - GREATEST(p.position, (SELECT seq - n FROM events WHERE seq IS NOT NULL ORDER BY seq LIMIT 1)), 0)
           + (SELECT COALESCE(SUM(n), 0) FROM events WHERE seq IS NULL),
       (SELECT count(*) FROM dead_letters WHERE sink = p.name),
       (SELECT count(*) FROM dead_letters WHERE sink = p.name AND queued)
FROM (SELECT s.name, coalesce(k.position, 0) AS position
      FROM (SELECT ? AS name) AS s LEFT JOIN sinks AS k ON k.name = s.name) AS p;

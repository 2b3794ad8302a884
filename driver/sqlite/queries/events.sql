-- name: Records
-- ?1 after, ?2 limit, ?3 storetype.MaxRecord. The records holding positions
-- after ?1 up to ?1 + ?2, or from the front when the front is past ?1:
-- positions are dense, so these are the records ending in that span or
-- up to a MaxRecord after it that begin in it, a range of the key. (The
-- start is a scalar subquery, run once, so that the walk of the key is
-- the outer loop and gives the order.)
WITH start(at) AS (
    SELECT max(?1, coalesce((SELECT seq - n FROM events WHERE seq > ?1 ORDER BY seq LIMIT 1), ?1))
)
SELECT seq, n, time, body FROM events
WHERE seq > (SELECT at FROM start) AND seq < (SELECT at FROM start) + ?2 + ?3
  AND seq - n < (SELECT at FROM start) + ?2
ORDER BY seq;

-- name: TakeSeq
-- The positions of a record of ?1 events: returns its last.
UPDATE event_seq SET last = last + ?1 RETURNING last;

-- name: InsertRecord
INSERT INTO events (seq, n, id, time, body) VALUES (?, ?, ?, ?, ?);

-- name: HasEvent
-- A derived event ID begins its record, so it is the record's id.
SELECT EXISTS (SELECT 1 FROM events WHERE id = ?);

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

-- name: FrontRecords
SELECT seq, n, time FROM events ORDER BY seq LIMIT ?;

-- name: OutboxSize
-- Positions are dense and records are only ever pruned from the front,
-- so the span counts their events.
SELECT coalesce((SELECT max(seq) FROM events) - (SELECT seq - n FROM events ORDER BY seq LIMIT 1), 0);

-- name: PruneEvents
-- From the front only, so that OutboxSize stays a span.
DELETE FROM events WHERE seq <= ? RETURNING n;

-- name: FeedEnd
-- The last position handed out: one row.
SELECT last FROM event_seq;

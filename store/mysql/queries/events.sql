-- name: TakeSeq
-- The last statement of every transaction that wrote events: it takes the
-- next n positions (its one parameter) and holds the row's lock until
-- commit, so positions are handed out in commit order. LAST_INSERT_ID(x)
-- returns the new last to the client without another round trip.
UPDATE event_seq SET last = LAST_INSERT_ID(last + ?) WHERE id = 1;

-- name: InsertEvents
INSERT INTO events (seq, id, type, subject, time, data) VALUES (?, ?, ?, ?, ?, ?), ...;

-- name: EventsAfter
SELECT seq, id, type, subject, time, data FROM events WHERE seq > ? ORDER BY seq LIMIT ?;

-- name: OutboxSize
-- Positions have no gaps (a rolled back transaction gives its range back)
-- and events are only ever pruned from the front, so the span is the count.
SELECT coalesce(max(seq) - min(seq) + 1, 0) FROM events;

-- name: HasEvent
SELECT count(*) FROM events WHERE id = ?;

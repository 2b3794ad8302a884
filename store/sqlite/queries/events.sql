-- name: InsertEvent
INSERT INTO events (id, type, subject, time, data) VALUES (?, ?, ?, ?, ?);

-- name: InsertEventOnce
INSERT INTO events (id, type, subject, time, data) VALUES (?, ?, ?, ?, ?)
ON CONFLICT (id) DO NOTHING;

-- name: EventsAfter
SELECT seq, id, type, subject, time, data FROM events WHERE seq > ? ORDER BY seq LIMIT ?;

-- name: OutboxSize
-- Events are only ever pruned from the front, so the span is the count.
SELECT coalesce(max(seq) - min(seq) + 1, 0) FROM events;

-- name: PruneEvents
-- From the front only, so that OutboxSize stays a span.
DELETE FROM events WHERE seq IN (SELECT seq FROM events WHERE seq <= ? ORDER BY seq LIMIT ?);

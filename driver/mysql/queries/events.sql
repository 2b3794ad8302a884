-- name: InsertRecord
-- A transaction's record, without a position: see Sequence.
INSERT INTO events (n, id, time, body) VALUES (?, ?, ?, ?);

-- name: Records
-- after, after, after, limit, store.MaxRecord, limit. The records holding
-- positions after `after` up to after + limit, or from the front when the
-- front is past it: positions are dense, so these are the records ending
-- in that span or up to a MaxRecord after it that begin in it, an index
-- range.
SELECT seq, n, time, body
FROM events, (SELECT GREATEST(?, COALESCE((SELECT seq - n FROM events WHERE seq > ? ORDER BY seq LIMIT 1), ?)) AS at) AS start
WHERE seq > start.at AND seq < start.at + ? + ? AND seq - n < start.at + ?
ORDER BY seq;

-- name: OutboxSize
-- Positions are dense and records are only ever pruned from the front,
-- so the span of the numbered records counts their events; those not
-- numbered yet are added.
SELECT COALESCE((SELECT MAX(seq) FROM events) - (SELECT seq - n FROM events WHERE seq IS NOT NULL ORDER BY seq LIMIT 1), 0)
     + (SELECT COALESCE(SUM(n), 0) FROM events WHERE seq IS NULL);

-- name: PrunedCount
-- The events PruneEvents deletes, their records held until it does.
SELECT COALESCE(SUM(n), 0) FROM events WHERE seq <= ? FOR UPDATE;

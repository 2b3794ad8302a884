-- name: TakeSeq :one
-- The positions of a record of n events: returns its last.
UPDATE event_seq SET last = last + @n RETURNING last;

-- name: InsertRecord :exec
INSERT INTO events (seq, n, id, time, body) VALUES (@seq, @n, @id, @time, @body);

-- name: HasEvent :one
-- A derived event ID begins its record, so it is the record's id.
SELECT EXISTS (SELECT 1 FROM events WHERE id = @id);

-- name: FrontRecords :many
SELECT seq, n, time FROM events ORDER BY seq LIMIT @page_size;

-- name: PruneEvents :many
-- From the front only, so that OutboxSize stays a span.
DELETE FROM events WHERE seq <= @through RETURNING n;

-- name: FeedEnd :one
-- The last position handed out: one row.
SELECT last FROM event_seq;

-- name: OutboxSize :one
-- Positions are dense and records are only ever pruned from the front,
-- so the span counts their events. (The cast types it for sqlc.)
SELECT CAST(coalesce((SELECT max(seq) FROM events) - (SELECT seq - n FROM events ORDER BY seq LIMIT 1), 0) AS INTEGER) AS size;

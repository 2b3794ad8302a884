-- name: HasUnsequenced :one
SELECT EXISTS (SELECT 1 FROM events WHERE seq IS NULL);

-- name: LockEventSeq :one
-- One sequencer at a time; writers never take this lock.
SELECT last FROM event_seq FOR UPDATE;

-- name: Unsequenced :many
-- A statement after LockEventSeq: it sees every record committed before
-- the lock was granted, so none that another sequencer numbered.
SELECT rid, n FROM events WHERE seq IS NULL ORDER BY rid LIMIT @lim;

-- name: SetEventSeq :exec
UPDATE event_seq SET last = @last;

-- name: EventExists :one
-- A derived event ID begins its record, so it is the record's id.
SELECT EXISTS (SELECT 1 FROM events WHERE id = @id);

-- name: FeedEnd :one
-- The last position handed out: one row.
SELECT last FROM event_seq;

-- name: FrontRecords :many
SELECT seq, n, time FROM events WHERE seq IS NOT NULL ORDER BY seq LIMIT @page_size;

-- name: LockEventID :exec
-- Writers of one derived event ID queue here until the first commits.
SELECT pg_advisory_xact_lock(hashtextextended(@id, 0));

-- name: OutboxSize :one
-- Positions are dense and records are only ever pruned from the front,
-- so the span of the numbered records counts their events; those not
-- numbered yet are added. (The cast types it for sqlc.)
SELECT (coalesce((SELECT max(seq) FROM events) - (SELECT seq - n FROM events WHERE seq IS NOT NULL ORDER BY seq LIMIT 1), 0)
      + (SELECT coalesce(sum(n), 0) FROM events WHERE seq IS NULL))::bigint AS size;

-- name: PruneEvents :one
-- From the front only, so that OutboxSize stays a span.
WITH pruned AS (DELETE FROM events WHERE seq <= $1 RETURNING n)
SELECT coalesce(sum(n), 0)::bigint AS n FROM pruned;

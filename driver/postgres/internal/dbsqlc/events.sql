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

-- name: HasEvent :one
-- A derived event ID begins its record, so it is the record's id.
SELECT count(*) FROM events WHERE id = sqlc.arg(id);

-- name: HasUnsequenced :one
SELECT EXISTS (SELECT 1 FROM events WHERE seq IS NULL);

-- name: LockEventSeq :one
-- One sequencer at a time; writers never take this lock.
SELECT last FROM event_seq WHERE id = 1 FOR UPDATE;

-- name: Unsequenced :many
-- A consistent read after LockEventSeq, in READ COMMITTED: it sees every
-- record committed before the lock was granted, so none that another
-- sequencer numbered. LIMIT takes no sqlc.arg in the MySQL parser.
SELECT rid, n FROM events WHERE seq IS NULL ORDER BY rid LIMIT ?;

-- name: Sequence :exec
-- By primary key, one row at a time: a join over the rids may scan events
-- and wait on a record still being written.
UPDATE events SET seq = sqlc.arg(seq) WHERE rid = sqlc.arg(rid);

-- name: SetEventSeq :exec
UPDATE event_seq SET last = sqlc.arg(last) WHERE id = 1;

-- name: FrontRecords :many
-- LIMIT takes no sqlc.arg in the MySQL parser.
SELECT seq, n, time FROM events WHERE seq IS NOT NULL ORDER BY seq LIMIT ?;


-- name: FeedEnd :one
-- The last position handed out: one row.
SELECT last FROM event_seq WHERE id = 1;

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

-- name: OutboxSize :one
-- Positions are dense and records are only ever pruned from the front,
-- so the span of the numbered records counts their events; those not
-- numbered yet are added.
SELECT CAST(COALESCE((SELECT MAX(seq) FROM events) - (SELECT seq - n FROM events WHERE seq IS NOT NULL ORDER BY seq LIMIT 1), 0)
            + (SELECT COALESCE(SUM(n), 0) FROM events WHERE seq IS NULL) AS SIGNED) AS size;

-- name: PrunedCount :one
-- The events PruneEvents deletes, their records held until it does.
SELECT CAST(COALESCE(SUM(n), 0) AS SIGNED) AS n FROM events WHERE seq <= sqlc.arg(through) FOR UPDATE;

-- name: InsertRecord :exec
-- A transaction's record, without a position: see Sequence. (body is
-- typed []byte, the record's own, in sqlc.yaml: no copy.)
INSERT INTO events (n, id, time, body) VALUES (?, ?, ?, ?);

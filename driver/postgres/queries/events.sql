-- name: InsertRecord
-- A transaction's record, without a position: see Sequence.
INSERT INTO events (n, id, time, body) VALUES ($1, $2, $3, $4);

-- name: Sequence
-- $1 the records' rids, $2 their positions.
UPDATE events SET seq = v.seq FROM unnest($1::bigint[], $2::bigint[]) AS v(rid, seq) WHERE events.rid = v.rid;

-- name: Records
-- $1 after, $2 limit, $3 store.MaxRecord. The records holding positions
-- after $1 up to $1 + $2, or from the front when the front is past $1:
-- positions are dense, so these are the records ending in that span or
-- up to a MaxRecord after it that begin in it, an index range.
WITH start AS (
    SELECT greatest($1, coalesce((SELECT seq - n FROM events WHERE seq > $1 ORDER BY seq LIMIT 1), $1)) AS at
)
SELECT seq, n, time, body FROM events, start
WHERE seq > start.at AND seq < start.at + $2 + $3 AND seq - n < start.at + $2
ORDER BY seq;

-- name: AppendEvents
-- The last statement of every transaction that wrote events: takes the
-- next cardinality($1) feed positions from event_seq, whose row lock is
-- held until the commit, and inserts the events at them in the order
-- given. Positions are so handed out in commit order, and a reader past a
-- position never sees a smaller one appear later.
WITH taken AS (
    UPDATE event_seq SET last = last + cardinality($1::text[]) RETURNING last
)
INSERT INTO events (seq, id, type, subject, time, data)
SELECT taken.last - cardinality($1::text[]) + e.n, e.id, e.type, e.subject, e.time, e.data::json
FROM taken, unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[], $5::text[])
     WITH ORDINALITY AS e(id, type, subject, time, data, n);

-- name: LockEventID
-- Writers of one derived event ID queue here until the first commits.
SELECT pg_advisory_xact_lock(hashtextextended($1, 0));

-- name: EventExists
SELECT EXISTS (SELECT 1 FROM events WHERE id = $1);

-- name: EventsAfter
SELECT seq, id, type, subject, time, data FROM events WHERE seq > $1 ORDER BY seq LIMIT $2;

-- name: OutboxSize
-- Seqs are dense and events are only ever pruned from the front, so the
-- span is the count.
SELECT coalesce(max(seq) - min(seq) + 1, 0) FROM events;

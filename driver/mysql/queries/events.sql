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

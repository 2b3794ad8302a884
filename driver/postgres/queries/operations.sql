-- name: Operations
-- $1 the state ('' for any), $2 the ID before which the page starts, $3
-- the limit: newest first, down the primary key.
SELECT id, kind, target, args, counts, actor, state, last_id, holder,
       created_at, started_at, finished_at, lease_until, done, total
FROM operations WHERE id < $2 AND ($1::text = '' OR state = $1) ORDER BY id DESC LIMIT $3;

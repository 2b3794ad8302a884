-- Used by `lapse bench` only: the drains lapse is measured against.

-- name: Settle
-- After a seed: the whole WAL copied into the database file and the WAL
-- truncated; busy is 1 if a reader or the checkpointer stopped it short.
PRAGMA wal_checkpoint(TRUNCATE);

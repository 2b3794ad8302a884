-- Shard leases, for many instances on one database file (store.Leases).
--
-- Rows carry no shard: a row's shard is lapse_shard(id), a function the
-- store registers (shard.go), the low four bits of the MD5 of the ID as on
-- PostgreSQL and MySQL. A drain of some shards walks the due index in due
-- order and skips the rows of other shards.

-- The database's clock, in unix milliseconds like every time here: the
-- lease queries read it, never the caller's.
CREATE VIEW clock (now) AS
SELECT CAST(round((julianday('now') - 2440587.5) * 86400000) AS INTEGER);

-- One lease per shard. token is the fencing token: it grows each time the
-- shard changes hands. A free shard has expired.
CREATE TABLE leases (
    shard      INTEGER PRIMARY KEY,
    holder     TEXT NOT NULL DEFAULT '',
    token      INTEGER NOT NULL DEFAULT 0,
    expires_at INTEGER NOT NULL DEFAULT 0
);
INSERT INTO leases (shard)
VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9), (10), (11), (12), (13), (14), (15);

-- The instances alive, by their last lease renewal: a fair share is the
-- shards over the live instances.
CREATE TABLE instances (
    holder  TEXT PRIMARY KEY,
    seen_at INTEGER NOT NULL
) WITHOUT ROWID;

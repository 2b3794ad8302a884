-- Outbox delivery: where each sink of the relay is in the feed, and the
-- events it gave up on.

CREATE TABLE sinks (
    name     TEXT PRIMARY KEY,
    position INTEGER NOT NULL
) WITHOUT ROWID;

-- A dead letter keeps a copy of its event: retention may prune the feed
-- past it before it is replayed.
CREATE TABLE dead_letters (
    sink      TEXT NOT NULL,
    seq       INTEGER NOT NULL,
    id        TEXT NOT NULL,
    type      TEXT NOT NULL,
    subject   TEXT NOT NULL,
    time      INTEGER NOT NULL,
    data      TEXT NOT NULL,
    attempts  INTEGER NOT NULL,
    error     TEXT NOT NULL,
    failed_at INTEGER NOT NULL,
    queued    INTEGER NOT NULL,
    PRIMARY KEY (sink, seq)
) WITHOUT ROWID;

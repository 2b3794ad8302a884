-- Outbox delivery: where each sink of the relay is in the feed, and the
-- events it gave up on. Sink names are looked up and IDs compared, so
-- they are VARBINARY, as 0005_byte_ids makes every such column; sizes are
-- those of the columns they come from (events) or of a name from outside.

CREATE TABLE IF NOT EXISTS sinks (
    name     VARBINARY(1020) NOT NULL PRIMARY KEY,
    position BIGINT NOT NULL
) ENGINE = InnoDB;

-- A dead letter keeps a copy of its event: retention may prune the feed
-- past it before it is replayed.
CREATE TABLE IF NOT EXISTS dead_letters (
    sink      VARBINARY(1020) NOT NULL,
    seq       BIGINT NOT NULL,
    id        VARBINARY(64) NOT NULL,
    type      VARCHAR(64) NOT NULL,
    subject   VARBINARY(1020) NOT NULL,
    time      DATETIME(3) NOT NULL,
    data      MEDIUMTEXT NOT NULL,
    attempts  INT NOT NULL,
    error     TEXT NOT NULL,
    failed_at DATETIME(3) NOT NULL,
    queued    BOOLEAN NOT NULL,
    PRIMARY KEY (sink, seq)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

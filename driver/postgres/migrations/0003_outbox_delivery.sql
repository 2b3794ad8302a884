-- Outbox delivery: where each sink of the relay is in the feed, and the
-- events it gave up on.

CREATE TABLE sinks (
    name     text COLLATE "C" PRIMARY KEY,
    position bigint NOT NULL
);

-- A dead letter keeps a copy of its event: retention may prune the feed
-- past it before it is replayed.
CREATE TABLE dead_letters (
    sink      text COLLATE "C" NOT NULL,
    seq       bigint NOT NULL,
    id        text NOT NULL,
    type      text NOT NULL,
    subject   text NOT NULL,
    time      timestamptz NOT NULL,
    data      json NOT NULL,
    attempts  integer NOT NULL,
    error     text NOT NULL,
    failed_at timestamptz NOT NULL,
    queued    boolean NOT NULL,
    PRIMARY KEY (sink, seq)
);

-- Times are timestamptz: 8 bytes like a bigint of milliseconds, compared
-- and indexed natively, readable in psql, and what now() returns when the
-- database clock becomes the authority. lapse writes whole milliseconds.
-- IDs collate as "C": byte order, as SQLite sorts them, and no locale work
-- on the hottest index comparisons. States are their names.

CREATE TABLE templates (
    id             text COLLATE "C" PRIMARY KEY,
    name           text NOT NULL,
    value          bigint NOT NULL,
    min_spend      bigint NOT NULL,
    starts_at      timestamptz NOT NULL,
    ends_at        timestamptz,
    duration       interval,
    per_user_limit bigint NOT NULL,
    total          bigint NOT NULL,
    issued         bigint NOT NULL DEFAULT 0,
    reminders      interval[] NOT NULL,
    created_at     timestamptz NOT NULL
);

-- Coupon counts by stored state, kept by every transition so that reading
-- them never scans coupons.
CREATE TABLE template_counts (
    template_id text COLLATE "C" NOT NULL,
    status      text NOT NULL,
    n           bigint NOT NULL,
    PRIMARY KEY (template_id, status)
);

CREATE TABLE coupons (
    id           text COLLATE "C" PRIMARY KEY,
    template_id  text COLLATE "C" NOT NULL,
    user_id      text COLLATE "C" NOT NULL,
    status       text NOT NULL,
    claimed_at   timestamptz NOT NULL,
    expires_at   timestamptz NOT NULL,
    order_id     text,
    locked_until timestamptz,
    updated_at   timestamptz NOT NULL,
    version      bigint NOT NULL
);

-- Wallet reads and per-user limits. No status in it: an expiry rewrites
-- no entry of this index.
CREATE INDEX coupons_user ON coupons (user_id, template_id);

-- What is due, over live rows only: the drains and the sweeper never read a
-- terminal row, and an expiry deletes one entry here instead of moving it.
-- template_id makes the lazy template counts an index-only scan.
CREATE INDEX coupons_due ON coupons (expires_at, template_id) WHERE status = 'unused';
CREATE INDEX coupons_lock_due ON coupons (locked_until) WHERE status = 'locked';

-- Group timers: one row per kind and due bucket, not per coupon.
CREATE TABLE timers (
    due_at timestamptz NOT NULL,
    kind   text NOT NULL,
    PRIMARY KEY (due_at, kind)
);

-- The outbox. seq is the feed's cursor and must follow commit order, which
-- a sequence does not: a transaction that took a lower number can commit
-- after one that took a higher, and a reader would pass it by. So events
-- get their seq at the very end of their transaction, from event_seq,
-- whose one row stays locked until the commit: seqs are handed out in
-- commit order. data is json, not jsonb: kept byte for byte as written.
CREATE TABLE events (
    seq     bigint PRIMARY KEY,
    id      text COLLATE "C" NOT NULL UNIQUE,
    type    text NOT NULL,
    subject text COLLATE "C" NOT NULL,
    time    timestamptz NOT NULL,
    data    json NOT NULL
);

CREATE TABLE event_seq (
    one  boolean PRIMARY KEY DEFAULT true CHECK (one),
    last bigint NOT NULL
);
INSERT INTO event_seq (last) VALUES (0);

CREATE TABLE idempotency (
    key         text COLLATE "C" PRIMARY KEY,
    fingerprint text NOT NULL,
    status      integer NOT NULL,
    body        bytea NOT NULL,
    created_at  timestamptz NOT NULL
);

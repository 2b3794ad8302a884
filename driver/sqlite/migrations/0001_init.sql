-- Times are unix milliseconds. States are their names.

CREATE TABLE templates (
    id             TEXT PRIMARY KEY,
    name           TEXT NOT NULL,
    value          INTEGER NOT NULL,
    min_spend      INTEGER NOT NULL,
    starts_at      INTEGER NOT NULL,
    ends_at        INTEGER,
    duration_ms    INTEGER,
    per_user_limit INTEGER NOT NULL,
    total          INTEGER NOT NULL,
    issued         INTEGER NOT NULL DEFAULT 0,
    reminders      TEXT NOT NULL,
    created_at     INTEGER NOT NULL
);

-- Coupon counts by stored state, kept by every transition so that reading
-- them never scans coupons.
CREATE TABLE template_counts (
    template_id TEXT NOT NULL,
    status      TEXT NOT NULL,
    n           INTEGER NOT NULL,
    PRIMARY KEY (template_id, status)
) WITHOUT ROWID;

CREATE TABLE coupons (
    id           TEXT NOT NULL UNIQUE,
    template_id  TEXT NOT NULL,
    user_id      TEXT NOT NULL,
    status       TEXT NOT NULL,
    claimed_at   INTEGER NOT NULL,
    expires_at   INTEGER NOT NULL,
    order_id     TEXT,
    locked_until INTEGER,
    updated_at   INTEGER NOT NULL,
    version      INTEGER NOT NULL
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
    due_at INTEGER NOT NULL,
    kind   TEXT NOT NULL,
    PRIMARY KEY (due_at, kind)
) WITHOUT ROWID;

-- The outbox. seq is the feed's cursor: SQLite has one writer, so seq
-- order is commit order.
CREATE TABLE events (
    seq     INTEGER PRIMARY KEY AUTOINCREMENT,
    id      TEXT NOT NULL UNIQUE,
    type    TEXT NOT NULL,
    subject TEXT NOT NULL,
    time    INTEGER NOT NULL,
    data    TEXT NOT NULL
);

CREATE TABLE idempotency (
    key         TEXT PRIMARY KEY,
    fingerprint TEXT NOT NULL,
    status      INTEGER NOT NULL,
    body        BLOB NOT NULL,
    created_at  INTEGER NOT NULL
);

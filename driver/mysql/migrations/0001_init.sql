-- Times are DATETIME(3) in UTC (the store sets the session time zone to
-- UTC and the driver's location to UTC). States are their names. Text is
-- utf8mb4 with binary collation: IDs compare byte for byte, as in SQLite.
-- MySQL commits each DDL statement on its own, so every statement here may
-- run again after a migration that stopped half-way.

CREATE TABLE IF NOT EXISTS templates (
    id             VARCHAR(64) NOT NULL PRIMARY KEY,
    name           TEXT NOT NULL,
    value          BIGINT NOT NULL,
    min_spend      BIGINT NOT NULL,
    starts_at      DATETIME(3) NOT NULL,
    ends_at        DATETIME(3) NULL,
    duration_ms    BIGINT NULL,
    per_user_limit BIGINT NOT NULL,
    total          BIGINT NOT NULL,
    issued         BIGINT NOT NULL DEFAULT 0,
    reminders      TEXT NOT NULL,
    created_at     DATETIME(3) NOT NULL
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- Coupon counts by stored state, a row per state created with the
-- template, kept by every transition so that reading them never scans
-- coupons.
CREATE TABLE IF NOT EXISTS template_counts (
    template_id VARCHAR(64) NOT NULL,
    status      VARCHAR(16) NOT NULL,
    n           BIGINT NOT NULL,
    PRIMARY KEY (template_id, status)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- The primary key is the coupon ID, which sorts by claim time: inserts
-- append to the clustered index, and a storm's rows, due together, are
-- rewritten in key order.
CREATE TABLE IF NOT EXISTS coupons (
    id           VARCHAR(64) NOT NULL PRIMARY KEY,
    template_id  VARCHAR(64) NOT NULL,
    user_id      VARCHAR(255) NOT NULL,
    status       VARCHAR(16) NOT NULL,
    claimed_at   DATETIME(3) NOT NULL,
    expires_at   DATETIME(3) NOT NULL,
    order_id     VARCHAR(255) NULL,
    locked_until DATETIME(3) NULL,
    updated_at   DATETIME(3) NOT NULL,
    version      BIGINT NOT NULL,
    -- Wallet reads and per-user limits. No status in it: an expiry
    -- rewrites no entry of this index.
    KEY coupons_user (user_id, template_id),
    -- What is due. MySQL has no partial index: status leads, so the drains
    -- and the sweeper read the range of one live state and never a
    -- terminal row. template_id makes the lazy template counts index-only.
    KEY coupons_due (status, expires_at, template_id),
    -- Locks due. locked_until is set while a coupon is locked and NULL in
    -- every other state, so a range on it reads locked coupons only, and
    -- an expiry, which leaves it NULL, rewrites no entry here.
    KEY coupons_lock_due (locked_until)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- Group timers: one row per kind and due bucket, not per coupon.
CREATE TABLE IF NOT EXISTS timers (
    due_at DATETIME(3) NOT NULL,
    kind   VARCHAR(32) NOT NULL,
    PRIMARY KEY (due_at, kind)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- The outbox. seq is the feed's cursor, in commit order: a transaction
-- takes its range of seq from event_seq as its last statement and holds
-- that row's lock until it commits, so a later seq never commits before
-- an earlier one.
CREATE TABLE IF NOT EXISTS events (
    seq     BIGINT NOT NULL PRIMARY KEY,
    id      VARCHAR(64) NOT NULL,
    type    VARCHAR(64) NOT NULL,
    subject VARCHAR(255) NOT NULL,
    time    DATETIME(3) NOT NULL,
    data    MEDIUMTEXT NOT NULL,
    UNIQUE KEY events_id (id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- The one row whose lock hands out event positions: last is the newest
-- seq taken.
CREATE TABLE IF NOT EXISTS event_seq (
    id   TINYINT NOT NULL PRIMARY KEY,
    last BIGINT NOT NULL
) ENGINE = InnoDB;

INSERT IGNORE INTO event_seq (id, last) VALUES (1, 0);

CREATE TABLE IF NOT EXISTS idempotency (
    `key`       VARCHAR(255) NOT NULL PRIMARY KEY,
    fingerprint VARCHAR(255) NOT NULL,
    status      INT NOT NULL,
    body        MEDIUMBLOB NOT NULL,
    created_at  DATETIME(3) NOT NULL
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

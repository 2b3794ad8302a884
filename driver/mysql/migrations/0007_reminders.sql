-- Reminders before a coupon expires, as driver/sqlite keeps them (see its
-- 0007_reminders.sql): users, planned reminders, their coupons and the
-- (coupon, lead) pairs reminded. IDs are VARBINARY as 0005_byte_ids made
-- them; leads are whole milliseconds, so a pair's key compares integers.
-- Each statement may run again.

-- Users as reminders need them: how to reach them and when they last acted.
-- A row appears with a user's first action or profile. channels is a JSON
-- array of channel names.
CREATE TABLE IF NOT EXISTS users (
    id             VARBINARY(1020) NOT NULL PRIMARY KEY,
    timezone       VARCHAR(64) NOT NULL,
    channels       TEXT NOT NULL,
    last_active_at DATETIME(3) NULL
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- One reminder per user, lead and window. first_at and last_at are the
-- earliest and latest crossing (expires_at - lead) of its coupons; due_at is
-- first_at moved by the quiet hours. A planned reminder becomes sent or
-- dropped (reason) once, at done_at. Its shard is its user's, computed as
-- a coupon's is from its ID (0004_shards.sql).
CREATE TABLE IF NOT EXISTS reminders (
    id       BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    user_id  VARBINARY(1020) NOT NULL,
    shard    TINYINT UNSIGNED AS (CONV(RIGHT(MD5(user_id), 1), 16, 10)) STORED,
    lead_ms  BIGINT NOT NULL,
    first_at DATETIME(3) NOT NULL,
    last_at  DATETIME(3) NOT NULL,
    due_at   DATETIME(3) NOT NULL,
    status   VARCHAR(16) NOT NULL,
    channel  VARCHAR(16) NULL,
    reason   VARCHAR(32) NULL,
    done_at  DATETIME(3) NULL,
    -- What is due. No partial index: status leads, so the drain reads the
    -- planned range in due order, the shard tested inside the index, as
    -- in the coupon due indexes.
    KEY reminders_due (status, due_at, shard),
    -- The planned reminders of a user and lead a new coupon may join.
    KEY reminders_user (user_id, lead_ms, status, first_at),
    -- The daily cap: what a user was sent, by time.
    KEY reminders_sent (user_id, status, done_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- The coupons of planned reminders, at most one per (coupon, lead). They
-- go once their reminder is sent or dropped.
CREATE TABLE IF NOT EXISTS reminder_items (
    coupon_id   VARBINARY(64) NOT NULL,
    lead_ms     BIGINT NOT NULL,
    reminder_id BIGINT NOT NULL,
    expires_at  DATETIME(3) NOT NULL,
    last_lead   BOOLEAN NOT NULL, -- the lead is the template's shortest
    PRIMARY KEY (coupon_id, lead_ms),
    KEY reminder_items_reminder (reminder_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- Every (coupon, lead) pair ever reminded: the key that makes a second
-- reminder of it impossible, across restarts and instances.
CREATE TABLE IF NOT EXISTS reminded (
    coupon_id   VARBINARY(64) NOT NULL,
    lead_ms     BIGINT NOT NULL,
    reminder_id BIGINT NOT NULL,
    PRIMARY KEY (coupon_id, lead_ms)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- Reminders before a coupon expires, as driver/sqlite keeps them (see its
-- 0007_reminders.sql): users, planned reminders, their coupons and the
-- (coupon, lead) pairs reminded. Leads are whole milliseconds, as the
-- rules compute them, so a pair's key compares integers.

-- Users as reminders need them: how to reach them and when they last acted.
-- A row appears with a user's first action or profile.
CREATE TABLE users (
    id             text COLLATE "C" PRIMARY KEY,
    timezone       text NOT NULL,
    channels       text[] NOT NULL,
    last_active_at timestamptz
);

-- One reminder per user, lead and window. first_at and last_at are the
-- earliest and latest crossing (expires_at - lead) of its coupons; due_at is
-- first_at moved by the quiet hours. A planned reminder becomes sent or
-- dropped (reason) once, at done_at. Its shard is its user's, computed as
-- a coupon's is from its ID (0004_shards.sql).
CREATE TABLE reminders (
    id       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id  text COLLATE "C" NOT NULL,
    shard    smallint NOT NULL GENERATED ALWAYS AS (get_byte(decode(md5(user_id), 'hex'), 15) % 16) STORED,
    lead_ms  bigint NOT NULL,
    first_at timestamptz NOT NULL,
    last_at  timestamptz NOT NULL,
    due_at   timestamptz NOT NULL,
    status   text NOT NULL,
    channel  text,
    reason   text,
    done_at  timestamptz
);

-- What is due, over planned reminders only, with the shard after the due
-- time as in the coupon due indexes.
CREATE INDEX reminders_due ON reminders (due_at, shard) WHERE status = 'planned';
-- The planned reminders of a user and lead a new coupon may join.
CREATE INDEX reminders_user ON reminders (user_id, lead_ms, first_at) WHERE status = 'planned';
-- The daily cap: what a user was sent, by time.
CREATE INDEX reminders_sent ON reminders (user_id, done_at) WHERE status = 'sent';

-- The coupons of planned reminders, at most one per (coupon, lead). They
-- go once their reminder is sent or dropped.
CREATE TABLE reminder_items (
    coupon_id   text COLLATE "C" NOT NULL,
    lead_ms     bigint NOT NULL,
    reminder_id bigint NOT NULL,
    expires_at  timestamptz NOT NULL,
    last_lead   boolean NOT NULL, -- the lead is the template's shortest
    PRIMARY KEY (coupon_id, lead_ms)
);

CREATE INDEX reminder_items_reminder ON reminder_items (reminder_id);

-- Every (coupon, lead) pair ever reminded: the key that makes a second
-- reminder of it impossible, across restarts and instances.
CREATE TABLE reminded (
    coupon_id   text COLLATE "C" NOT NULL,
    lead_ms     bigint NOT NULL,
    reminder_id bigint NOT NULL,
    PRIMARY KEY (coupon_id, lead_ms)
);

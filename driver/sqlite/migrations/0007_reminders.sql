-- Users as reminders need them: how to reach them and when they last acted.
-- A row appears with a user's first action or profile.
CREATE TABLE users (
    id             TEXT PRIMARY KEY,
    timezone       TEXT NOT NULL,
    channels       TEXT NOT NULL, -- JSON array of channel names
    last_active_at INTEGER
) WITHOUT ROWID;

-- One reminder per user, lead and window. first_at and last_at are the
-- earliest and latest crossing (expires_at - lead) of its coupons; due_at is
-- first_at moved by the quiet hours. A planned reminder becomes sent or
-- dropped (reason) once, at done_at.
CREATE TABLE reminders (
    id         INTEGER PRIMARY KEY,
    user_id    TEXT NOT NULL,
    lead_ms    INTEGER NOT NULL,
    first_at   INTEGER NOT NULL,
    last_at    INTEGER NOT NULL,
    due_at     INTEGER NOT NULL,
    status     TEXT NOT NULL,
    channel    TEXT,
    reason     TEXT,
    done_at    INTEGER
);

-- What is due, over planned reminders only.
CREATE INDEX reminders_due ON reminders (due_at) WHERE status = 'planned';
-- The planned reminders of a user and lead a new coupon may join.
CREATE INDEX reminders_user ON reminders (user_id, lead_ms, first_at) WHERE status = 'planned';
-- The daily cap: what a user was sent, by time.
CREATE INDEX reminders_sent ON reminders (user_id, done_at) WHERE status = 'sent';

-- The coupons of planned reminders, at most one per (coupon, lead). They
-- go once their reminder is sent or dropped.
CREATE TABLE reminder_items (
    coupon_id   TEXT NOT NULL,
    lead_ms     INTEGER NOT NULL,
    reminder_id INTEGER NOT NULL,
    expires_at  INTEGER NOT NULL,
    last_lead   INTEGER NOT NULL, -- 1: the lead is the template's shortest
    PRIMARY KEY (coupon_id, lead_ms)
) WITHOUT ROWID;

CREATE INDEX reminder_items_reminder ON reminder_items (reminder_id);

-- Every (coupon, lead) pair ever reminded: the key that makes a second
-- reminder of it impossible, across restarts and instances.
CREATE TABLE reminded (
    coupon_id   TEXT NOT NULL,
    lead_ms     INTEGER NOT NULL,
    reminder_id INTEGER NOT NULL,
    PRIMARY KEY (coupon_id, lead_ms)
) WITHOUT ROWID;

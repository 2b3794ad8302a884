-- The archive: terminal coupons (used, expired, voided) and paid or closed
-- orders move here, a batch per transaction, once last changed longer ago
-- than --archive-after (store.DB.Archive). Same columns as the hot tables
-- and archived_at; read by ID, and coupons by user: the wallet with
-- ?include=archived, and the per-user limit, which counts them too.
CREATE TABLE coupons_archive (
    id           TEXT PRIMARY KEY,
    template_id  TEXT NOT NULL,
    user_id      TEXT NOT NULL,
    status       TEXT NOT NULL,
    claimed_at   INTEGER NOT NULL,
    expires_at   INTEGER NOT NULL,
    order_id     TEXT,
    locked_until INTEGER,
    updated_at   INTEGER NOT NULL,
    version      INTEGER NOT NULL,
    archived_at  INTEGER NOT NULL
) WITHOUT ROWID;

CREATE INDEX coupons_archive_user ON coupons_archive (user_id, template_id);

CREATE TABLE orders_archive (
    id           TEXT PRIMARY KEY,
    user_id      TEXT NOT NULL,
    status       TEXT NOT NULL,
    close_reason TEXT,
    items        TEXT NOT NULL,
    coupon_ids   TEXT NOT NULL,
    total        INTEGER NOT NULL,
    discount     INTEGER NOT NULL,
    amount_due   INTEGER NOT NULL,
    deadline     INTEGER NOT NULL,
    payment_id   TEXT,
    created_at   INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL,
    version      INTEGER NOT NULL,
    archived_at  INTEGER NOT NULL
) WITHOUT ROWID;

-- What the archive moves next, over terminal rows only, by last change: an
-- entry is appended as a row turns terminal (updated_at is about now), so
-- the index grows at its right edge.
CREATE INDEX coupons_done ON coupons (updated_at) WHERE status IN ('used', 'expired', 'voided');
CREATE INDEX orders_done ON orders (updated_at) WHERE status IN ('paid', 'closed');
-- Reminder history to prune: sent and dropped reminders by when.
CREATE INDEX reminders_done ON reminders (done_at) WHERE status <> 'planned';

-- The archive: terminal coupons (used, expired, voided) and paid or closed
-- orders move here, a batch per transaction, once last changed longer ago
-- than --archive-after (store.DB.Archive). Same columns as the hot tables
-- (but the shard) and archived_at; read by ID, and coupons by user: the
-- wallet with ?include=archived, and the per-user limit, which counts them
-- too.
CREATE TABLE coupons_archive (
    id           text COLLATE "C" PRIMARY KEY,
    template_id  text COLLATE "C" NOT NULL,
    user_id      text COLLATE "C" NOT NULL,
    status       text NOT NULL,
    claimed_at   timestamptz NOT NULL,
    expires_at   timestamptz NOT NULL,
    order_id     text,
    locked_until timestamptz,
    updated_at   timestamptz NOT NULL,
    version      bigint NOT NULL,
    archived_at  timestamptz NOT NULL
);

CREATE INDEX coupons_archive_user ON coupons_archive (user_id, template_id);

CREATE TABLE orders_archive (
    id           text COLLATE "C" PRIMARY KEY,
    user_id      text COLLATE "C" NOT NULL,
    status       text NOT NULL,
    close_reason text,
    items        jsonb NOT NULL,
    coupon_ids   text[] NOT NULL,
    total        bigint NOT NULL,
    discount     bigint NOT NULL,
    amount_due   bigint NOT NULL,
    deadline     timestamptz NOT NULL,
    payment_id   text,
    created_at   timestamptz NOT NULL,
    updated_at   timestamptz NOT NULL,
    version      bigint NOT NULL,
    archived_at  timestamptz NOT NULL
);

-- What the archive moves next, over terminal rows only, by last change: an
-- entry is appended as a row turns terminal (updated_at is about now), so
-- the index grows at its right edge.
CREATE INDEX coupons_done ON coupons (updated_at) WHERE status IN ('used', 'expired', 'voided');
CREATE INDEX orders_done ON orders (updated_at) WHERE status IN ('paid', 'closed');
-- Reminder history to prune: sent and dropped reminders by when.
CREATE INDEX reminders_done ON reminders (done_at) WHERE status <> 'planned';

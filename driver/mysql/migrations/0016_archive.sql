-- The archive: terminal coupons (used, expired, voided) and paid or closed
-- orders move here, a batch per transaction, once last changed longer ago
-- than --archive-after (store.DB.Archive). Same columns as the hot tables
-- (but the shard) and archived_at; read by ID, and coupons by user: the
-- wallet with ?include=archived, and the per-user limit, which counts them
-- too.
CREATE TABLE IF NOT EXISTS coupons_archive (
    id           VARBINARY(64) NOT NULL PRIMARY KEY,
    template_id  VARBINARY(64) NOT NULL,
    user_id      VARBINARY(1020) NOT NULL,
    status       VARCHAR(16) NOT NULL,
    claimed_at   DATETIME(3) NOT NULL,
    expires_at   DATETIME(3) NOT NULL,
    order_id     VARBINARY(1020) NULL,
    locked_until DATETIME(3) NULL,
    updated_at   DATETIME(3) NOT NULL,
    version      BIGINT NOT NULL,
    archived_at  DATETIME(3) NOT NULL,
    KEY coupons_archive_user (user_id, template_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE TABLE IF NOT EXISTS orders_archive (
    id           VARBINARY(64) NOT NULL PRIMARY KEY,
    user_id      VARBINARY(1020) NOT NULL,
    status       VARCHAR(16) NOT NULL,
    close_reason VARCHAR(32) NULL,
    items        MEDIUMTEXT NOT NULL,
    coupon_ids   TEXT NOT NULL,
    total        BIGINT NOT NULL,
    discount     BIGINT NOT NULL,
    amount_due   BIGINT NOT NULL,
    deadline     DATETIME(3) NOT NULL,
    payment_id   VARBINARY(1020) NULL,
    created_at   DATETIME(3) NOT NULL,
    updated_at   DATETIME(3) NOT NULL,
    version      BIGINT NOT NULL,
    archived_at  DATETIME(3) NOT NULL
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- What the archive moves next, by state and last change. MySQL has no
-- partial index: live rows have entries too, which the archive never reads.
ALTER TABLE coupons ADD KEY coupons_done (status, updated_at);
ALTER TABLE orders ADD KEY orders_done (status, updated_at);
-- Reminder history to prune: sent and dropped reminders by when.
ALTER TABLE reminders ADD KEY reminders_done (status, done_at);

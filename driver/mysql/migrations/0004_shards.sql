-- Shards and their leases, for many instances on one database.
--
-- A row's shard is the low four bits of the MD5 of its ID, stored so that
-- the drains filter on it inside the due indexes (index condition
-- pushdown) and computed here so that no writer can get it wrong.
-- store.Shards is 16 to match. The due indexes carry it after the due
-- time: a drain of one shard walks the due range in order and skips other
-- shards' entries without reading their rows.
ALTER TABLE coupons
    ADD COLUMN shard TINYINT UNSIGNED AS (CONV(RIGHT(MD5(id), 1), 16, 10)) STORED,
    DROP KEY coupons_due,
    ADD KEY coupons_due (status, expires_at, shard, template_id),
    DROP KEY coupons_lock_due,
    ADD KEY coupons_lock_due (locked_until, shard);

ALTER TABLE orders
    ADD COLUMN shard TINYINT UNSIGNED AS (CONV(RIGHT(MD5(id), 1), 16, 10)) STORED,
    DROP KEY orders_due,
    ADD KEY orders_due (status, deadline, shard);

-- One lease per shard. token is the fencing token: it grows each time the
-- shard changes hands. A free shard has expired.
CREATE TABLE IF NOT EXISTS leases (
    shard      TINYINT UNSIGNED NOT NULL PRIMARY KEY,
    holder     VARCHAR(255) NOT NULL DEFAULT '',
    token      BIGINT NOT NULL DEFAULT 0,
    expires_at DATETIME(6) NOT NULL DEFAULT '1970-01-01 00:00:00'
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
INSERT IGNORE INTO leases (shard) VALUES (0), (1), (2), (3), (4), (5), (6), (7),
    (8), (9), (10), (11), (12), (13), (14), (15);

-- The instances alive, by their last lease renewal: a fair share is the
-- shards over the live instances.
CREATE TABLE IF NOT EXISTS instances (
    holder  VARCHAR(255) NOT NULL PRIMARY KEY,
    seen_at DATETIME(6) NOT NULL
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

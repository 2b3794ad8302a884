-- Stock in three counters that never go negative; their sum is the stock
-- last set.
CREATE TABLE IF NOT EXISTS skus (
    sku        VARCHAR(255) NOT NULL PRIMARY KEY,
    available  BIGINT NOT NULL,
    reserved   BIGINT NOT NULL,
    sold       BIGINT NOT NULL,
    updated_at DATETIME(3) NOT NULL,
    CONSTRAINT skus_never_negative CHECK (available >= 0 AND reserved >= 0 AND sold >= 0)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- Items and coupon IDs are read and written with their order, never
-- queried on their own: they are JSON text.
CREATE TABLE IF NOT EXISTS orders (
    id           VARCHAR(64) NOT NULL PRIMARY KEY,
    user_id      VARCHAR(255) NOT NULL,
    status       VARCHAR(16) NOT NULL,
    close_reason VARCHAR(32) NULL,
    items        MEDIUMTEXT NOT NULL,
    coupon_ids   TEXT NOT NULL,
    total        BIGINT NOT NULL,
    discount     BIGINT NOT NULL,
    amount_due   BIGINT NOT NULL,
    deadline     DATETIME(3) NOT NULL,
    payment_id   VARCHAR(255) NULL,
    created_at   DATETIME(3) NOT NULL,
    updated_at   DATETIME(3) NOT NULL,
    version      BIGINT NOT NULL,
    -- Open orders by deadline: status leads, so the timeout drain reads
    -- the unpaid range and never a paid or closed order.
    KEY orders_due (status, deadline)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- Bulk operations (void, extend) and what they work: an operation's
-- target, arguments and counts are JSON; last_id is the ID of the last
-- coupon worked, stored with each batch so that a crash resumes after it;
-- holder works it until lease_until, when another instance may take it
-- over. Each statement may run again.
CREATE TABLE IF NOT EXISTS operations (
    id          VARBINARY(64) NOT NULL PRIMARY KEY,
    kind        VARCHAR(16) NOT NULL,
    target      MEDIUMTEXT NOT NULL,
    args        TEXT NOT NULL,
    counts      TEXT NOT NULL,
    actor       VARBINARY(255) NOT NULL,
    state       VARCHAR(16) NOT NULL,
    last_id     VARBINARY(255) NOT NULL,
    holder      VARBINARY(255) NOT NULL,
    created_at  DATETIME(3) NOT NULL,
    started_at  DATETIME(3) NULL,
    finished_at DATETIME(3) NULL,
    lease_until DATETIME(3) NULL,
    done        BIGINT NOT NULL,
    total       BIGINT NOT NULL,
    KEY operations_running (state, id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- Locked coupons an operation voids when their lock ends, in place of
-- giving them back unused.
CREATE TABLE IF NOT EXISTS pending_voids (
    coupon_id VARBINARY(64) NOT NULL PRIMARY KEY,
    operation VARBINARY(64) NOT NULL,
    reason    TEXT NOT NULL,
    actor     VARBINARY(255) NOT NULL
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- A template's coupons by ID: the pages an operation works.
CREATE INDEX IF NOT EXISTS coupons_template ON coupons (template_id, id);

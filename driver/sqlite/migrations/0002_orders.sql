-- Stock in three counters that never go negative; their sum is the stock
-- last set.
CREATE TABLE skus (
    sku        TEXT PRIMARY KEY,
    available  INTEGER NOT NULL CHECK (available >= 0),
    reserved   INTEGER NOT NULL CHECK (reserved >= 0),
    sold       INTEGER NOT NULL CHECK (sold >= 0),
    updated_at INTEGER NOT NULL
) WITHOUT ROWID;

-- Items and coupon ids are read and written with their order, never
-- queried on their own: they are JSON columns.
CREATE TABLE orders (
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
    version      INTEGER NOT NULL
);

-- Open orders by deadline: the timeout drain never reads a paid or closed
-- order.
CREATE INDEX orders_due ON orders (deadline) WHERE status = 'unpaid';

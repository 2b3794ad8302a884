-- Stock in three counters that never go negative; their sum is the stock
-- last set.
CREATE TABLE skus (
    sku        text COLLATE "C" PRIMARY KEY,
    available  bigint NOT NULL CHECK (available >= 0),
    reserved   bigint NOT NULL CHECK (reserved >= 0),
    sold       bigint NOT NULL CHECK (sold >= 0),
    updated_at timestamptz NOT NULL
);

-- Items and coupon IDs are read and written with their order, never
-- queried on their own.
CREATE TABLE orders (
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
    version      bigint NOT NULL
);

-- Open orders by deadline: the timeout drain never reads a paid or closed
-- order.
CREATE INDEX orders_due ON orders (deadline) WHERE status = 'unpaid';

-- Bulk operations (void, extend) and what they work: an operation's
-- target, arguments and counts are JSON; last_id is the ID of the last
-- coupon worked, stored with each batch so that a crash resumes after it;
-- holder works it until lease_until, when another instance may take it
-- over.
CREATE TABLE operations (
    id          text COLLATE "C" PRIMARY KEY,
    kind        text NOT NULL,
    target      text NOT NULL,
    args        text NOT NULL,
    counts      text NOT NULL,
    actor       text NOT NULL,
    state       text NOT NULL,
    last_id     text COLLATE "C" NOT NULL,
    holder      text NOT NULL,
    created_at  timestamptz NOT NULL,
    started_at  timestamptz,
    finished_at timestamptz,
    lease_until timestamptz,
    done        bigint NOT NULL,
    total       bigint NOT NULL
);

CREATE INDEX operations_running ON operations (id) WHERE state = 'running';

-- Locked coupons an operation voids when their lock ends, in place of
-- giving them back unused.
CREATE TABLE pending_voids (
    coupon_id text COLLATE "C" PRIMARY KEY,
    operation text NOT NULL,
    reason    text NOT NULL,
    actor     text NOT NULL
);

-- A template's coupons by ID: the pages an operation works.
CREATE INDEX coupons_template ON coupons (template_id, id);

-- Bulk operations (void, extend) and what they work: an operation's
-- target, arguments and counts are JSON; last_id is the ID of the last
-- coupon worked, stored with each batch so that a crash resumes after it;
-- holder works it until lease_until (Unix ms), when another instance may
-- take it over.
CREATE TABLE operations (
    id          TEXT PRIMARY KEY,
    kind        TEXT NOT NULL,
    target      TEXT NOT NULL,
    args        TEXT NOT NULL,
    counts      TEXT NOT NULL,
    actor       TEXT NOT NULL,
    state       TEXT NOT NULL,
    last_id     TEXT NOT NULL,
    holder      TEXT NOT NULL,
    created_at  INTEGER NOT NULL,
    started_at  INTEGER,
    finished_at INTEGER,
    lease_until INTEGER,
    done        INTEGER NOT NULL,
    total       INTEGER NOT NULL
) WITHOUT ROWID;

CREATE INDEX operations_running ON operations (id) WHERE state = 'running';

-- Locked coupons an operation voids when their lock ends, in place of
-- giving them back unused.
CREATE TABLE pending_voids (
    coupon_id TEXT PRIMARY KEY,
    operation TEXT NOT NULL,
    reason    TEXT NOT NULL,
    actor     TEXT NOT NULL
) WITHOUT ROWID;

-- A template's coupons by ID: the pages an operation works.
CREATE INDEX coupons_template ON coupons (template_id, id);

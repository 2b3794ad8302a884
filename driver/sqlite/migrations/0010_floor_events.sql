-- The outbox of the plain-transaction floor that `lapse bench orders
-- --hot-sku` measures lapse against: an events table with the same
-- columns. lapse never reads or writes it.
CREATE TABLE floor_events (
    seq     INTEGER PRIMARY KEY AUTOINCREMENT,
    id      TEXT NOT NULL UNIQUE,
    type    TEXT NOT NULL,
    subject TEXT NOT NULL,
    time    INTEGER NOT NULL,
    data    TEXT NOT NULL
);

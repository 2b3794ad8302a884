-- The outbox of the plain-transaction floor that `lapse bench orders
-- --hot-sku` measures lapse against: an events table with the same
-- columns and unique id, whose seq an identity hands out with no lock
-- held to the commit. lapse never reads or writes it.
CREATE TABLE floor_events (
    seq     bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id      text COLLATE "C" NOT NULL UNIQUE,
    type    text NOT NULL,
    subject text COLLATE "C" NOT NULL,
    time    timestamptz NOT NULL,
    data    json NOT NULL
);

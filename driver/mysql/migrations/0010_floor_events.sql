-- The outbox of the plain-transaction floor that `lapse bench orders
-- --hot-sku` measures lapse against: an events table with the same
-- columns and unique id, whose seq AUTO_INCREMENT hands out with no lock
-- held to the commit. lapse never reads or writes it.
CREATE TABLE IF NOT EXISTS floor_events (
    seq     BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    id      VARCHAR(64) NOT NULL,
    type    VARCHAR(64) NOT NULL,
    subject VARCHAR(255) NOT NULL,
    time    DATETIME(3) NOT NULL,
    data    MEDIUMTEXT NOT NULL,
    UNIQUE KEY floor_events_id (id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

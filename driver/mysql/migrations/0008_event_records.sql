-- Outbox records (store.Record): the events of one transaction, up to
-- store.MaxRecord of them, in one row, as a JSON array of [id, type,
-- subject, time in ms, data]; time is the latest of their times.
--
-- A writer inserts its record without a position (seq NULL), so that no
-- lock is shared by every commit. Positions are handed out after the
-- commit by whoever reads the feed: under event_seq's row lock, to the
-- committed records that have none, in insertion order (rid). A record
-- that commits late gets a later position, never one a reader has
-- passed; and two transactions about one subject serialise on its row,
-- so the second inserts, and is numbered, after the first commits. seq
-- is now the position of a record's last event; events_seq, led by it,
-- also finds the records without one (NULL, in rid order).
ALTER TABLE events
    DROP PRIMARY KEY,
    ADD COLUMN rid BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY FIRST,
    MODIFY seq BIGINT NULL,
    ADD UNIQUE KEY events_seq (seq),
    ADD COLUMN n INT NOT NULL DEFAULT 1,
    ADD COLUMN body MEDIUMTEXT NULL;

UPDATE events SET body = CONCAT('[[', JSON_QUOTE(CONVERT(id USING utf8mb4)), ',', JSON_QUOTE(type), ',',
    JSON_QUOTE(CONVERT(subject USING utf8mb4)), ',', TIMESTAMPDIFF(MICROSECOND, '1970-01-01', time) DIV 1000, ',', data, ']]');

ALTER TABLE events
    MODIFY body MEDIUMTEXT NOT NULL,
    ALTER COLUMN n DROP DEFAULT,
    DROP COLUMN type,
    DROP COLUMN subject,
    DROP COLUMN data;

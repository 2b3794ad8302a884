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
-- is now the position of a record's last event.
ALTER TABLE events ADD COLUMN n integer NOT NULL DEFAULT 1, ADD COLUMN body text;
UPDATE events SET body = json_build_array(json_build_array(
    id, type, subject, (extract(epoch FROM time) * 1000)::bigint, data))::text;
ALTER TABLE events
    ALTER COLUMN body SET NOT NULL,
    ALTER COLUMN n DROP DEFAULT,
    DROP COLUMN type,
    DROP COLUMN subject,
    DROP COLUMN data,
    DROP CONSTRAINT events_pkey,
    ALTER COLUMN seq DROP NOT NULL,
    ADD CONSTRAINT events_seq UNIQUE (seq),
    ADD COLUMN rid bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY;
CREATE INDEX events_unsequenced ON events (rid) WHERE seq IS NULL;

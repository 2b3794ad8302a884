-- Outbox records (store.Record): the events of one transaction, or of one
-- drain or issuance statement, up to store.MaxRecord of them, in one row,
-- as a JSON array of [id, type, subject, time in ms, data]; time is the
-- latest of their times. seq is the position of the record's last event,
-- taken from event_seq: SQLite has one writer, so positions are handed
-- out in commit order. id is the first event's, which EventOnce looks up.
CREATE TABLE event_seq (
    one  INTEGER PRIMARY KEY CHECK (one = 1),
    last INTEGER NOT NULL
);
INSERT INTO event_seq VALUES (1, coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'events'), 0));

CREATE TABLE event_records (
    seq  INTEGER PRIMARY KEY,
    n    INTEGER NOT NULL,
    id   TEXT NOT NULL UNIQUE,
    time INTEGER NOT NULL,
    body TEXT NOT NULL
);
INSERT INTO event_records (seq, n, id, time, body)
SELECT seq, 1, id, time, json_array(json_array(id, type, subject, time, json(data))) FROM events ORDER BY seq;
DROP TABLE events;
ALTER TABLE event_records RENAME TO events;

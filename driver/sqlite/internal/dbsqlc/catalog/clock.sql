-- For sqlc only, after the migrations (sqlc.yaml): the view clock of
-- 0004_shards.sql, its column named in the select rather than in a column
-- list, which sqlc's SQLite engine does not read. The database keeps the
-- migrations' view; both read the same clock.
DROP VIEW clock;
CREATE VIEW clock AS SELECT CAST(round((julianday('now') - 2440587.5) * 86400000) AS INTEGER) AS now;

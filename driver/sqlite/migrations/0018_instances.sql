-- Each instance's clock skew against the database's, as it last measured
-- it (ms, the local clock ahead of the database's positive), and when on
-- the database's clock (unix ms); NULL until it measures. The console
-- lists them per instance.
ALTER TABLE instances ADD COLUMN skew_ms INTEGER;
ALTER TABLE instances ADD COLUMN skew_at INTEGER;

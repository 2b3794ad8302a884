-- Each instance's clock skew against the database's, as it last measured
-- it (ms, the local clock ahead of the database's positive), and when on
-- the database's clock; NULL until it measures. The console lists them
-- per instance.
ALTER TABLE instances ADD COLUMN skew_ms BIGINT NULL, ADD COLUMN skew_at DATETIME(6) NULL;

-- Templates an operator changes and closes: closed_at is set once the
-- template takes no more claims nor issuance; version counts its changes,
-- each a compare-and-set on it.
ALTER TABLE templates
    ADD COLUMN closed_at DATETIME(3) NULL,
    ADD COLUMN version BIGINT NOT NULL DEFAULT 1;

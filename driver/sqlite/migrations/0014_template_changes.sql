-- Templates an operator changes and closes: closed_at (Unix ms) is set
-- once the template takes no more claims nor issuance; version counts its
-- changes, each a compare-and-set on it.
ALTER TABLE templates ADD COLUMN closed_at INTEGER;
ALTER TABLE templates ADD COLUMN version INTEGER NOT NULL DEFAULT 1;

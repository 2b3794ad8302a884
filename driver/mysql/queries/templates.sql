-- name: InsertCounts
-- A zero count per state and slot: every later change is then an UPDATE,
-- which cannot deadlock the way two concurrent upserts of a new row can.
INSERT INTO template_counts (template_id, status, slot, n) VALUES (?, ?, ?, 0), ...;

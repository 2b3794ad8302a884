-- name: InsertCounts
-- A zero count per state and slot: every later change is then an UPDATE,
-- which cannot deadlock the way two concurrent upserts of a new row can.
INSERT INTO template_counts (template_id, status, slot, n) VALUES (?, ?, ?, 0), ...;

-- name: NewestTemplates
-- ? the ID before which the page starts, ? the limit: newest first,
-- down the primary key.
SELECT id, name, value, min_spend, starts_at, ends_at, duration_ms,
       per_user_limit, total, reminders, created_at, closed_at, version
FROM templates WHERE id < ? ORDER BY id DESC LIMIT ?;

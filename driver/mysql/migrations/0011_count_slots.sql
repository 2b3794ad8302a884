-- Template counts split over sqlfile.CountSlots (8) slots: a transaction
-- adds its moves to one slot, picked at random, so that the drains of
-- many instances (each batch moving every storm template's counts) and
-- users' transitions seldom wait on one another for a count row. A count
-- is the sum of its slots. Every slot's row exists from the template's
-- creation on, so that a change is always an UPDATE (see InsertCounts).
ALTER TABLE template_counts
    ADD COLUMN slot TINYINT NOT NULL DEFAULT 0,
    DROP PRIMARY KEY,
    ADD PRIMARY KEY (template_id, status, slot);
INSERT INTO template_counts (template_id, status, slot, n)
SELECT c.template_id, c.status, s.slot, 0
FROM template_counts AS c
JOIN (SELECT 1 AS slot UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4
      UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7) AS s
WHERE c.slot = 0;
ALTER TABLE template_counts ALTER COLUMN slot DROP DEFAULT;

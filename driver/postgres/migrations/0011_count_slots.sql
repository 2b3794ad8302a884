-- Template counts split over sqlfile.CountSlots slots: a transaction adds
-- its moves to one slot, picked at random, so that the drains of many
-- instances (each batch moving every storm template's counts) and users'
-- transitions seldom wait on one another for a count row. A count is the
-- sum of its slots.
ALTER TABLE template_counts ADD COLUMN slot smallint NOT NULL DEFAULT 0;
ALTER TABLE template_counts
    DROP CONSTRAINT template_counts_pkey,
    ADD PRIMARY KEY (template_id, status, slot),
    ALTER COLUMN slot DROP DEFAULT;

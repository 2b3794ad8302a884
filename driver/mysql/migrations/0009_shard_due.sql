-- The due indexes lead with the shard, after the state: a drain walks one
-- shard's due rows in due order, a range that holds no other shard's
-- entry. With the shard after the due time (0004_shards.sql), the claim of
-- one shard walked every shard's due entries, interleaved, and InnoDB
-- locks each entry a locking read passes before it tests the shard: a
-- batch held the due rows of every shard it passed (TestClaimLocksBounded:
-- 683 record locks for a batch of 20 of one shard in 16), other instances
-- skipped the rows of their own shards it held, and in a storm with the
-- default 128 MB buffer pool three instances filled it with lock heaps.
--
-- A drain batch reads, without locking, the earliest due IDs of each of
-- its shards, merges them, then claims those rows by primary key (see
-- queries/drain.sql); what reads every shard at once (the next due time,
-- the backlog) reads the first entry of each shard, or each one's range.
-- Each statement may run again: it drops and adds the same index.

ALTER TABLE coupons
    DROP KEY coupons_due,
    ADD KEY coupons_due (status, shard, expires_at, template_id),
    DROP KEY coupons_lock_due,
    ADD KEY coupons_lock_due (shard, locked_until);

ALTER TABLE orders
    DROP KEY orders_due,
    ADD KEY orders_due (status, shard, deadline);

ALTER TABLE reminders
    DROP KEY reminders_due,
    ADD KEY reminders_due (status, shard, due_at);

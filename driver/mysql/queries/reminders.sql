-- The rows of planned reminders, their coupons and the pairs reminded;
-- the rules over them are the service's (store.DB). Leads are in
-- milliseconds.

-- name: DueReminderShards
-- now, the shard, limit: one shard's earliest due planned reminders, read
-- from the index alone (see drain.sql).
SELECT shard, due_at AS due FROM reminders FORCE INDEX (reminders_due)
WHERE status = 'planned' AND due_at <= ? AND shard = ?
ORDER BY due_at LIMIT ?

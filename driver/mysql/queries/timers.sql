-- name: InsertTimers
-- IGNORE, not ON DUPLICATE KEY UPDATE: a waiter on a row another
-- transaction is inserting then needs only a shared lock, and two of them
-- cannot deadlock upgrading it.
INSERT IGNORE INTO timers (due_at, kind) VALUES (?, ?), ...;

-- name: DueTimers
SELECT kind, due_at FROM timers WHERE due_at <= ? ORDER BY due_at LIMIT ?;

-- name: DeleteTimers
DELETE FROM timers WHERE kind = ? AND due_at <= ?;

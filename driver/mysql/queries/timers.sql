-- name: InsertTimers
-- IGNORE, not ON DUPLICATE KEY UPDATE: a waiter on a row another
-- transaction is inserting then needs only a shared lock, and two of them
-- cannot deadlock upgrading it.
INSERT IGNORE INTO timers (due_at, kind) VALUES (?, ?), ...;

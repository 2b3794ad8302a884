-- name: NewestTemplates
-- ?1 the ID before which the page starts, ?2 the limit: newest first,
-- down the primary key.
SELECT id, name, value, min_spend, starts_at, ends_at, duration_ms,
       per_user_limit, total, reminders, created_at, closed_at, version
FROM templates WHERE id < ?1 ORDER BY id DESC LIMIT ?2;

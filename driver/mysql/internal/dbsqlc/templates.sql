-- name: InsertTemplate :exec
INSERT INTO templates (id, name, value, min_spend, starts_at, ends_at, duration_ms,
                       per_user_limit, total, reminders, created_at)
VALUES (sqlc.arg(id), sqlc.arg(name), sqlc.arg(value), sqlc.arg(min_spend), sqlc.arg(starts_at),
        sqlc.arg(ends_at), sqlc.arg(duration_ms), sqlc.arg(per_user_limit), sqlc.arg(total),
        sqlc.arg(reminders), sqlc.arg(created_at));

-- name: GetTemplate :one
SELECT id, name, value, min_spend, starts_at, ends_at, duration_ms,
       per_user_limit, total, reminders, created_at, closed_at, version
FROM templates WHERE id = sqlc.arg(id);

-- name: LockTemplate :one
SELECT id, name, value, min_spend, starts_at, ends_at, duration_ms,
       per_user_limit, total, reminders, created_at, closed_at, version
FROM templates WHERE id = sqlc.arg(id) FOR UPDATE;

-- name: ListTemplates :many
-- A page of templates after the ID after ('' for the first); LIMIT takes
-- no sqlc.arg in the MySQL parser.
SELECT id, name, value, min_spend, starts_at, ends_at, duration_ms,
       per_user_limit, total, reminders, created_at, closed_at, version
FROM templates WHERE id > sqlc.arg(after) ORDER BY id LIMIT ?;

-- name: SetTemplate :execrows
-- A compare-and-set on the version read, refused if the coupons issued
-- pass the new total.
UPDATE templates SET name = sqlc.arg(name), value = sqlc.arg(value), total = sqlc.arg(total),
                     reminders = sqlc.arg(reminders), closed_at = sqlc.arg(closed_at), version = version + 1
WHERE id = sqlc.arg(id) AND version = sqlc.arg(version) AND (sqlc.arg(total) = 0 OR issued <= sqlc.arg(total));

-- name: GetCounts :many
-- A template's counts by state, summed over their slots.
SELECT status, CAST(SUM(n) AS SIGNED) AS n FROM template_counts WHERE template_id = ? GROUP BY status HAVING SUM(n) <> 0;

-- name: CountDueUnused :one
-- Unused coupons of a template that the lazy check reads as expired: the
-- due range of every shard (store.Shards is 16; see drain.sql).
SELECT count(*) FROM coupons FORCE INDEX (coupons_due)
WHERE status = 'unused' AND expires_at <= ? AND template_id = ?
  AND shard IN (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);

-- name: TemplateIssued :one
SELECT issued FROM templates WHERE id = sqlc.arg(id);

-- name: NewestTemplates :many
-- A page of templates newest first, down the primary key: before the ID
-- before; LIMIT takes no sqlc.arg in the MySQL parser.
SELECT id, name, value, min_spend, starts_at, ends_at, duration_ms,
       per_user_limit, total, reminders, created_at, closed_at, version
FROM templates WHERE id < sqlc.arg(before) ORDER BY id DESC LIMIT ?;

-- name: ListTokens :many
SELECT name, hash, scopes, created_at, revoked_at FROM tokens ORDER BY name;

-- name: GetToken :one
SELECT name, hash, scopes, created_at, revoked_at FROM tokens WHERE name = sqlc.arg(name);

-- name: InsertToken :execrows
-- Nothing if a token of the name exists (the duplicate key is ignored; no
-- other error can be on these columns).
INSERT IGNORE INTO tokens (name, hash, scopes, created_at)
VALUES (sqlc.arg(name), sqlc.arg(hash), sqlc.arg(scopes), sqlc.arg(created_at));

-- name: RevokeToken :exec
-- A token revoked keeps its first revocation.
UPDATE tokens SET revoked_at = sqlc.arg(now) WHERE name = sqlc.arg(name) AND revoked_at IS NULL;

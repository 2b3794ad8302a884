-- name: ListTokens :many
SELECT name, hash, scopes, created_at, revoked_at FROM tokens ORDER BY name;

-- name: GetToken :one
SELECT name, hash, scopes, created_at, revoked_at FROM tokens WHERE name = @name;

-- name: InsertToken :execrows
-- Nothing if a token of the name exists.
INSERT INTO tokens (name, hash, scopes, created_at) VALUES (@name, @hash, @scopes, @created_at)
ON CONFLICT DO NOTHING;

-- name: RevokeToken :exec
-- A token revoked keeps its first revocation.
UPDATE tokens SET revoked_at = @now WHERE name = @name AND revoked_at IS NULL;

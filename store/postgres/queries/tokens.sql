-- name: ListTokens
SELECT name, hash, scopes, created_at, revoked_at FROM tokens ORDER BY name;

-- name: GetToken
SELECT name, hash, scopes, created_at, revoked_at FROM tokens WHERE name = $1;

-- name: InsertToken
-- $1 name, $2 hash, $3 scopes, $4 created_at: nothing if a token of the
-- name exists.
INSERT INTO tokens (name, hash, scopes, created_at) VALUES ($1, $2, $3, $4)
ON CONFLICT DO NOTHING;

-- name: RevokeToken
-- $1 now, $2 name: a token revoked keeps its first revocation.
UPDATE tokens SET revoked_at = $1 WHERE name = $2 AND revoked_at IS NULL;

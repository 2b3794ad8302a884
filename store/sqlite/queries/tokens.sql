-- name: ListTokens
SELECT name, hash, scopes, created_at, revoked_at FROM tokens ORDER BY name;

-- name: GetToken
SELECT name, hash, scopes, created_at, revoked_at FROM tokens WHERE name = ?;

-- name: InsertToken
-- name, hash, scopes, created_at: nothing if a token of the name exists.
INSERT INTO tokens (name, hash, scopes, created_at) VALUES (?, ?, ?, ?)
ON CONFLICT DO NOTHING;

-- name: RevokeToken
-- ?1 now, ?2 name: a token revoked keeps its first revocation.
UPDATE tokens SET revoked_at = ?1 WHERE name = ?2 AND revoked_at IS NULL;

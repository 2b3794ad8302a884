-- name: ListTokens
SELECT name, hash, scopes, created_at, revoked_at FROM tokens ORDER BY name;

-- name: GetToken
SELECT name, hash, scopes, created_at, revoked_at FROM tokens WHERE name = ?;

-- name: InsertToken
-- name, hash, scopes, created_at: nothing if a token of the name exists
-- (the duplicate key is ignored; no other error can be on these columns).
INSERT IGNORE INTO tokens (name, hash, scopes, created_at) VALUES (?, ?, ?, ?);

-- name: RevokeToken
-- now, name: a token revoked keeps its first revocation.
UPDATE tokens SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL;

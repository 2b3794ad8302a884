-- API credentials: a token's name, the hex SHA-256 of its secret (the
-- secret is never stored), its scopes as a comma-separated list, and when
-- it was created and revoked (Unix ms). A revoked token stays, keeping its
-- name.
CREATE TABLE tokens (
    name       TEXT PRIMARY KEY,
    hash       TEXT NOT NULL UNIQUE,
    scopes     TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    revoked_at INTEGER
) WITHOUT ROWID;

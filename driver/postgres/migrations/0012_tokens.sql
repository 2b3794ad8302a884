-- API credentials: a token's name, the hex SHA-256 of its secret (the
-- secret is never stored), its scopes as a comma-separated list, and when
-- it was created and revoked. A revoked token stays, keeping its name.
CREATE TABLE tokens (
    name       text COLLATE "C" PRIMARY KEY,
    hash       text NOT NULL UNIQUE,
    scopes     text NOT NULL,
    created_at timestamptz NOT NULL,
    revoked_at timestamptz
);

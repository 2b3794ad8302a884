-- API credentials: a token's name, the hex SHA-256 of its secret (the
-- secret is never stored), its scopes as a comma-separated list, and when
-- it was created and revoked. A revoked token stays, keeping its name.
CREATE TABLE IF NOT EXISTS tokens (
    name       VARCHAR(64) NOT NULL PRIMARY KEY,
    hash       CHAR(64) NOT NULL UNIQUE,
    scopes     VARCHAR(255) NOT NULL,
    created_at DATETIME(3) NOT NULL,
    revoked_at DATETIME(3) NULL
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

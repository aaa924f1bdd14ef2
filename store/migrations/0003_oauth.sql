-- 0003: OAuth 2.1 grants for assistant connectors. A grant is one user's
-- approval of one client; codes and tokens hang off it, and revoking the
-- grant ends every token at once. Codes and tokens are stored as SHA-256
-- hashes only.

CREATE TABLE oauth_grants (
    id          TEXT PRIMARY KEY,
    user_id     TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    client_id   TEXT NOT NULL,
    scopes      TEXT NOT NULL,          -- JSON array
    created_at  TEXT NOT NULL,
    revoked_at  TEXT
) STRICT;
CREATE INDEX oauth_grants_user ON oauth_grants(user_id);

CREATE TABLE oauth_codes (
    hash            TEXT PRIMARY KEY,
    grant_id        TEXT NOT NULL REFERENCES oauth_grants(id) ON DELETE CASCADE,
    redirect_uri    TEXT NOT NULL,
    code_challenge  TEXT NOT NULL,      -- S256 of the verifier
    resource        TEXT NOT NULL DEFAULT '',
    expires_at      TEXT NOT NULL,
    used_at         TEXT
) STRICT;

CREATE TABLE oauth_tokens (
    hash        TEXT PRIMARY KEY,
    grant_id    TEXT NOT NULL REFERENCES oauth_grants(id) ON DELETE CASCADE,
    kind        TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
    expires_at  TEXT NOT NULL,
    revoked_at  TEXT
) STRICT;
CREATE INDEX oauth_tokens_grant ON oauth_tokens(grant_id);

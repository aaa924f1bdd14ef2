-- 0031: OAuth clients that registered themselves (RFC 7591 dynamic client
-- registration): public clients only, so there is no secret to keep. They
-- belong to no user: a client is a program, and each user's approval of
-- it is a grant (oauth_grants.client_id), revoked on its own.
CREATE TABLE oauth_clients (
    id             TEXT PRIMARY KEY,
    name           TEXT NOT NULL,
    redirect_uris  TEXT NOT NULL,       -- JSON array
    created_at     TEXT NOT NULL
) STRICT;

-- 0015: a key family of its own for /v1/custom-stt ('stt'), what a phone
-- app's custom-STT setting holds instead of the owner's ID token. SQLite
-- cannot change a CHECK constraint in place, so the table is rebuilt
-- (nothing references it; its one index is recreated).
CREATE TABLE api_keys_new (
    id            TEXT PRIMARY KEY,
    user_id       TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    kind          TEXT NOT NULL CHECK (kind IN ('dev', 'mcp', 'stt')),
    name          TEXT NOT NULL,
    hash          TEXT NOT NULL UNIQUE,   -- sha256 hex of the secret part; the key itself is never stored
    display       TEXT NOT NULL,
    scopes        TEXT NOT NULL,          -- JSON array
    created_at    TEXT NOT NULL,
    last_used_at  TEXT,
    revoked_at    TEXT
) STRICT;
INSERT INTO api_keys_new (id, user_id, kind, name, hash, display, scopes, created_at, last_used_at, revoked_at)
    SELECT id, user_id, kind, name, hash, display, scopes, created_at, last_used_at, revoked_at FROM api_keys;
DROP TABLE api_keys;
ALTER TABLE api_keys_new RENAME TO api_keys;
CREATE INDEX api_keys_user ON api_keys(user_id);

-- 0018: signing in to the console. Each user may have a password (a
-- PBKDF2-SHA256 hash with its salt and cost, never the password); a
-- session is a random token of which only the SHA-256 is kept, with the
-- CSRF token that state-changing requests must echo; the one-time setup
-- code that lets the first person on the LAN claim the appliance is kept
-- hashed in settings.
CREATE TABLE console_passwords (
    user_id    TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    hash       TEXT NOT NULL,
    updated_at TEXT NOT NULL
) STRICT;
CREATE TABLE console_sessions (
    token_hash TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    csrf       TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
) STRICT;
CREATE INDEX console_sessions_user ON console_sessions(user_id);

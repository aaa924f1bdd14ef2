-- 0027: a household. One-time sign-in codes (a member's invite, a
-- forgotten password's reset), kept as SHA-256 only, each for one user,
-- expiring; and the audit trail of appliance-wide changes, refused
-- attempts included. An audit line outlives the user it names (no
-- foreign key; the name is copied): who removed a member stays on record.
CREATE TABLE console_codes (
    code_hash  TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    kind       TEXT NOT NULL CHECK (kind IN ('invite', 'reset')),
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
) STRICT;
CREATE INDEX console_codes_user ON console_codes(user_id);
CREATE TABLE audit_log (
    id        INTEGER PRIMARY KEY,
    at        TEXT NOT NULL,
    user_id   TEXT NOT NULL,
    user_name TEXT NOT NULL,
    action    TEXT NOT NULL,
    target    TEXT NOT NULL,
    refused   INTEGER NOT NULL CHECK (refused IN (0, 1))
) STRICT;

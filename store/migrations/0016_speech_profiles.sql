-- 0016: each user's speech profile: the voice embedding live sessions
-- compare speakers with (of the extractor named, little-endian float32),
-- and the trimmed speech it was made from.
CREATE TABLE speech_profiles (
    user_id    TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    extractor  TEXT NOT NULL,
    embedding  BLOB NOT NULL,
    seconds    REAL NOT NULL,
    audio      BLOB NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
) STRICT;

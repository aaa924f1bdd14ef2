-- 0017: what the appliance has learnt of known people's voices (persons) from the
-- owner's speaker assignments: a running mean of embeddings (of the
-- extractor named, little-endian float32) and how much speech it rests on.
CREATE TABLE person_voices (
    person_id  TEXT PRIMARY KEY REFERENCES persons(id) ON DELETE CASCADE,
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    extractor  TEXT NOT NULL,
    embedding  BLOB NOT NULL,
    seconds    REAL NOT NULL,
    updated_at TEXT NOT NULL
) STRICT;
CREATE INDEX person_voices_user ON person_voices(user_id);

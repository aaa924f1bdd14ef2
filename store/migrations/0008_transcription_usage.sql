-- 0008: how much audio each user had transcribed as voice messages, for the
-- daily budget (a rolling 24 h window). Rows older than the window are
-- pruned as new ones are written.
CREATE TABLE transcription_usage (
    id       INTEGER PRIMARY KEY,
    user_id  TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    at       TEXT NOT NULL,
    ms       INTEGER NOT NULL CHECK (ms >= 0)
) STRICT;
CREATE INDEX transcription_usage_user_at ON transcription_usage(user_id, at);

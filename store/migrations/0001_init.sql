-- 0001: users, keys, conversations and their segments, action items, memories,
-- folders and persons. Times are TEXT in fixed-width UTC RFC 3339 with
-- microseconds (2006-01-02T15:04:05.000000Z) so that text order is time order.

CREATE TABLE users (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    time_zone   TEXT NOT NULL DEFAULT '',
    created_at  TEXT NOT NULL
) STRICT;

CREATE TABLE api_keys (
    id            TEXT PRIMARY KEY,
    user_id       TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    kind          TEXT NOT NULL CHECK (kind IN ('dev', 'mcp')),
    name          TEXT NOT NULL,
    hash          TEXT NOT NULL UNIQUE,   -- sha256 hex of the secret part; the key itself is never stored
    display       TEXT NOT NULL,
    scopes        TEXT NOT NULL,          -- JSON array
    created_at    TEXT NOT NULL,
    last_used_at  TEXT,
    revoked_at    TEXT
) STRICT;
CREATE INDEX api_keys_user ON api_keys(user_id);

CREATE TABLE folders (
    id          TEXT PRIMARY KEY,
    user_id     TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name        TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    color       TEXT NOT NULL DEFAULT '',
    is_default  INTEGER NOT NULL DEFAULT 0,
    created_at  TEXT NOT NULL
) STRICT;
CREATE INDEX folders_user ON folders(user_id);

CREATE TABLE persons (
    id          TEXT PRIMARY KEY,
    user_id     TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name        TEXT NOT NULL,
    created_at  TEXT NOT NULL
) STRICT;
CREATE INDEX persons_user ON persons(user_id);

CREATE TABLE conversations (
    id                  TEXT PRIMARY KEY,
    user_id             TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at          TEXT NOT NULL,
    updated_at          TEXT NOT NULL,
    started_at          TEXT,
    finished_at         TEXT,
    source              TEXT NOT NULL,
    language            TEXT NOT NULL DEFAULT '',
    status              TEXT NOT NULL CHECK (status IN ('in_progress', 'processing', 'completed', 'failed')),
    title               TEXT NOT NULL DEFAULT '',
    overview            TEXT NOT NULL DEFAULT '',
    emoji               TEXT NOT NULL DEFAULT '',
    category            TEXT NOT NULL DEFAULT 'other',
    events              TEXT NOT NULL DEFAULT '[]',   -- JSON array of structured.events
    geolocation         TEXT,                         -- JSON object or NULL
    photos              TEXT NOT NULL DEFAULT '[]',
    apps_results        TEXT NOT NULL DEFAULT '[]',
    external_data       TEXT,                         -- JSON object or NULL
    discarded           INTEGER NOT NULL DEFAULT 0,
    deleted             INTEGER NOT NULL DEFAULT 0,   -- soft delete
    visibility          TEXT NOT NULL DEFAULT 'private' CHECK (visibility IN ('private', 'shared', 'public')),
    is_locked           INTEGER NOT NULL DEFAULT 0,
    starred             INTEGER NOT NULL DEFAULT 0,
    folder_id           TEXT REFERENCES folders(id) ON DELETE SET NULL,
    client_session_id   TEXT,
    client_device_id    TEXT NOT NULL DEFAULT '',
    client_platform     TEXT NOT NULL DEFAULT '',
    client_processing   TEXT,                         -- untrusted JSON, display only
    claimed_at          TEXT,                         -- from-segments idempotency claim
    meeting_treatment_eligible INTEGER NOT NULL DEFAULT 0,
    meeting_treatment_reason   TEXT NOT NULL DEFAULT ''
) STRICT;
CREATE INDEX conversations_user_started ON conversations(user_id, deleted, started_at DESC);
CREATE INDEX conversations_user_status ON conversations(user_id, status);

CREATE TABLE transcript_segments (
    conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    idx             INTEGER NOT NULL,
    id              TEXT NOT NULL,
    text            TEXT NOT NULL,
    speaker         TEXT NOT NULL,
    speaker_id      INTEGER NOT NULL,
    is_user         INTEGER NOT NULL,
    person_id       TEXT,
    start_s         REAL NOT NULL,
    end_s           REAL NOT NULL,
    translations    TEXT NOT NULL DEFAULT '[]',
    speech_profile_processed INTEGER NOT NULL DEFAULT 1,
    stt_provider    TEXT,
    PRIMARY KEY (conversation_id, idx)
) STRICT, WITHOUT ROWID;

CREATE TABLE action_items (
    id              TEXT PRIMARY KEY,
    user_id         TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    conversation_id TEXT REFERENCES conversations(id) ON DELETE SET NULL,
    description     TEXT NOT NULL,
    completed       INTEGER NOT NULL DEFAULT 0,
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL,
    due_at          TEXT,
    completed_at    TEXT,
    is_locked       INTEGER NOT NULL DEFAULT 0,
    deleted         INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX action_items_user ON action_items(user_id, deleted, created_at DESC);
CREATE INDEX action_items_conversation ON action_items(conversation_id);

CREATE TABLE memories (
    id              TEXT PRIMARY KEY,
    user_id         TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    conversation_id TEXT REFERENCES conversations(id) ON DELETE SET NULL,
    content         TEXT NOT NULL,
    category        TEXT NOT NULL,
    tags            TEXT NOT NULL DEFAULT '[]',
    visibility      TEXT NOT NULL DEFAULT 'private',
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL,
    reviewed        INTEGER NOT NULL DEFAULT 0,
    user_review     INTEGER,
    manually_added  INTEGER NOT NULL DEFAULT 0,
    edited          INTEGER NOT NULL DEFAULT 0,
    is_locked       INTEGER NOT NULL DEFAULT 0,
    deleted         INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX memories_user ON memories(user_id, deleted, created_at DESC);

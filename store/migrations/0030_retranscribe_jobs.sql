-- 0030: "transcribe again" jobs. A job runs in the background and is
-- resumed after a restart, so it is a row: the conversations it covers (a
-- JSON array, in order), how many of them are done, and its state. Each
-- conversation's new transcript is saved in the same transaction that
-- moves `done` on, so a job resumed after a crash redoes none and skips
-- none.
CREATE TABLE retranscribe_jobs (
    id               TEXT PRIMARY KEY,
    user_id          TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    route            TEXT NOT NULL DEFAULT '',
    conversation_ids TEXT NOT NULL DEFAULT '[]',
    done             INTEGER NOT NULL DEFAULT 0,
    failed           INTEGER NOT NULL DEFAULT 0,
    status           TEXT NOT NULL,
    error            TEXT NOT NULL DEFAULT '',
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL
) STRICT;
CREATE INDEX retranscribe_jobs_user ON retranscribe_jobs(user_id, created_at DESC);
CREATE INDEX retranscribe_jobs_open ON retranscribe_jobs(status) WHERE status IN ('queued', 'running');

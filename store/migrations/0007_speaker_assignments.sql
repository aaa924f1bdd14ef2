-- 0007: who the owner said a live speaker was. A wearable's app sends
-- speaker_assigned when the owner names the voice behind some segments;
-- the segments take the person at once, and these rows keep the evidence
-- (which diarised speaker, in which conversation, which segments) that
-- learning the owner's and their people's voices is built on.
CREATE TABLE speaker_assignments (
    id              INTEGER PRIMARY KEY,
    user_id         TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    speaker_id      INTEGER NOT NULL,
    person_id       TEXT NOT NULL,
    person_name     TEXT NOT NULL,
    segment_ids     TEXT NOT NULL,
    created_at      TEXT NOT NULL
) STRICT;
CREATE INDEX speaker_assignments_user ON speaker_assignments(user_id, person_id);
CREATE INDEX speaker_assignments_conversation ON speaker_assignments(conversation_id);

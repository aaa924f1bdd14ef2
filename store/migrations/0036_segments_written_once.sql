-- 0036: a segment is written once. Since 0028 every segment a create
-- stored was written twice: to transcript_segments (keyed by conversation
-- and position, without a rowid) and, by a trigger that also looked up the
-- conversation's owner, to segment_docs, only to give FTS5 an integer key
-- and a copy of the text. transcript_segments now has that key itself
-- (doc_id, its rowid; the position stays unique), segment_fts reads the
-- text from it, and segment_docs becomes a view: the segments of
-- conversations not deleted, with their owner, under the names the search
-- queries and FTS5's external content already use. The doc_ids of indexed
-- segments are kept, so segment_fts is not rebuilt.
--
-- What was true of segment_docs rows is now true of a segment whose
-- conversation is not deleted: it is in segment_fts when it is at or below
-- segment_fts_mark.indexed and not in segment_fts_pending (0034). A
-- deleted conversation's segments are in no index; undeleting it (a client
-- re-creating it) queues those at or below the mark again.
CREATE TABLE transcript_segments_0036 (
    doc_id          INTEGER PRIMARY KEY,
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
    UNIQUE (conversation_id, idx)
) STRICT;

-- Indexed (or waiting) segments keep their doc_id; the segments of deleted
-- conversations, which had none, follow them.
INSERT INTO transcript_segments_0036 (doc_id, conversation_id, idx, id, text, speaker, speaker_id, is_user, person_id,
        start_s, end_s, translations, speech_profile_processed, stt_provider)
    SELECT d.doc_id, s.conversation_id, s.idx, s.id, s.text, s.speaker, s.speaker_id, s.is_user, s.person_id,
        s.start_s, s.end_s, s.translations, s.speech_profile_processed, s.stt_provider
    FROM segment_docs d JOIN transcript_segments s ON s.conversation_id = d.conversation_id AND s.idx = d.idx
    ORDER BY d.doc_id;
INSERT INTO transcript_segments_0036 (conversation_id, idx, id, text, speaker, speaker_id, is_user, person_id,
        start_s, end_s, translations, speech_profile_processed, stt_provider)
    SELECT s.conversation_id, s.idx, s.id, s.text, s.speaker, s.speaker_id, s.is_user, s.person_id,
        s.start_s, s.end_s, s.translations, s.speech_profile_processed, s.stt_provider
    FROM transcript_segments s
    WHERE NOT EXISTS (SELECT 1 FROM segment_docs d WHERE d.conversation_id = s.conversation_id AND d.idx = s.idx)
    ORDER BY s.conversation_id, s.idx;

-- The mark stays where it was unless the segments just numbered went past
-- it while nothing waited: they are a deleted conversation's, not waiting.
UPDATE segment_fts_mark SET indexed = (SELECT COALESCE(max(doc_id), 0) FROM transcript_segments_0036)
    WHERE id = 1 AND indexed >= (SELECT COALESCE(max(doc_id), 0) FROM segment_docs);

DROP TRIGGER conversations_deleted_segments;
DROP TABLE segment_docs;
DROP TABLE transcript_segments;
ALTER TABLE transcript_segments_0036 RENAME TO transcript_segments;
CREATE INDEX transcript_segments_person ON transcript_segments(person_id) WHERE person_id IS NOT NULL;

-- CROSS JOIN: the segments first, their conversation looked up by key.
-- With statistics the planner otherwise read "segments past the mark" (every
-- search asks) from every conversation of the user and each one's segments.
CREATE VIEW segment_docs AS
    SELECT s.doc_id AS doc_id, c.user_id AS user_id, s.conversation_id AS conversation_id, s.idx AS idx,
        s.text AS text, s.speaker AS speaker, s.person_id AS person_id, s.start_s AS start_s
    FROM transcript_segments s CROSS JOIN conversations c ON c.id = s.conversation_id
    WHERE c.deleted = 0;

-- A segment leaves the index only if it is in it. The owner's row is still
-- there when a segment goes: a conversation's delete takes its segments
-- first (below), before the foreign key's cascade would.
CREATE TRIGGER transcript_segments_ad AFTER DELETE ON transcript_segments BEGIN
    INSERT INTO segment_fts (segment_fts, rowid, text) SELECT 'delete', old.doc_id, old.text
        WHERE old.doc_id <= (SELECT indexed FROM segment_fts_mark WHERE id = 1)
          AND NOT EXISTS (SELECT 1 FROM segment_fts_pending WHERE doc_id = old.doc_id)
          AND EXISTS (SELECT 1 FROM conversations WHERE id = old.conversation_id AND deleted = 0);
    DELETE FROM segment_fts_pending WHERE doc_id = old.doc_id;
    UPDATE segment_fts_mark SET indexed = (SELECT COALESCE(max(doc_id), 0) FROM transcript_segments)
        WHERE id = 1 AND indexed >= old.doc_id
          AND old.doc_id > (SELECT COALESCE(max(doc_id), 0) FROM transcript_segments);
END;
CREATE TRIGGER transcript_segments_au AFTER UPDATE OF text ON transcript_segments WHEN old.text IS NOT new.text BEGIN
    INSERT INTO segment_fts (segment_fts, rowid, text) SELECT 'delete', old.doc_id, old.text
        WHERE old.doc_id <= (SELECT indexed FROM segment_fts_mark WHERE id = 1)
          AND NOT EXISTS (SELECT 1 FROM segment_fts_pending WHERE doc_id = old.doc_id)
          AND EXISTS (SELECT 1 FROM conversations WHERE id = old.conversation_id AND deleted = 0);
    INSERT INTO segment_fts_pending (doc_id) SELECT new.doc_id
        WHERE new.doc_id <= (SELECT indexed FROM segment_fts_mark WHERE id = 1)
          AND EXISTS (SELECT 1 FROM conversations WHERE id = new.conversation_id AND deleted = 0)
    ON CONFLICT (doc_id) DO NOTHING;
END;
CREATE TRIGGER conversations_delete_segments BEFORE DELETE ON conversations BEGIN
    DELETE FROM transcript_segments WHERE conversation_id = old.id;
END;
-- A deleted conversation (a soft delete: its rows stay) leaves the index;
-- one undeleted comes back to it.
CREATE TRIGGER conversations_deleted_segments AFTER UPDATE OF deleted ON conversations
    WHEN new.deleted = 1 AND old.deleted = 0 BEGIN
    INSERT INTO segment_fts (segment_fts, rowid, text) SELECT 'delete', s.doc_id, s.text FROM transcript_segments s
        WHERE s.conversation_id = new.id AND s.doc_id <= (SELECT indexed FROM segment_fts_mark WHERE id = 1)
          AND NOT EXISTS (SELECT 1 FROM segment_fts_pending p WHERE p.doc_id = s.doc_id);
    DELETE FROM segment_fts_pending WHERE doc_id IN (SELECT doc_id FROM transcript_segments WHERE conversation_id = new.id);
END;
CREATE TRIGGER conversations_undeleted_segments AFTER UPDATE OF deleted ON conversations
    WHEN new.deleted = 0 AND old.deleted = 1 BEGIN
    INSERT INTO segment_fts_pending (doc_id) SELECT doc_id FROM transcript_segments
        WHERE conversation_id = new.id AND doc_id <= (SELECT indexed FROM segment_fts_mark WHERE id = 1)
    ON CONFLICT (doc_id) DO NOTHING;
END;

-- 0028: what was said is searchable. A conversation's search document is
-- its title, category and overview (0002); the words of its transcript
-- were in no index, so a conversation that named "dentist" only aloud was
-- never found by it. Each transcript segment now has a row here, with its
-- owner, conversation, speaker and start time, and a full-text index over
-- its words (its own index, so that BM25 weighs a word by how common it is
-- among segments, and a hit can point at the time in the recording).
--
-- transcript_segments has no rowid (it is keyed by conversation and
-- position), and FTS5 needs an integer key for external content: the
-- segment's row here gives it one. Triggers on transcript_segments keep it
-- in step with every write (segments are upserted by position, replaced
-- on merge and deleted with their conversation through its foreign key,
-- whose cascade fires the delete trigger, or soft-deleted with it).
CREATE TABLE segment_docs (
    doc_id          INTEGER PRIMARY KEY,
    user_id         TEXT NOT NULL,
    conversation_id TEXT NOT NULL,
    idx             INTEGER NOT NULL,
    text            TEXT NOT NULL,
    speaker         TEXT NOT NULL,
    person_id       TEXT,
    start_s         REAL NOT NULL,
    UNIQUE (conversation_id, idx)
) STRICT;

CREATE VIRTUAL TABLE segment_fts USING fts5(
    text, content = 'segment_docs', content_rowid = 'doc_id',
    tokenize = 'porter unicode61 remove_diacritics 2'
);
-- Merging happens while the indexer is idle (MaintainIndex), as for the
-- other indexes (migration 0011).
INSERT INTO segment_fts (segment_fts, rank) VALUES ('automerge', 0);
INSERT INTO segment_fts (segment_fts, rank) VALUES ('usermerge', 4);
INSERT INTO segment_fts (segment_fts, rank) VALUES ('crisismerge', 16);

-- Backfill: every segment already stored, then one pass to index them.
INSERT INTO segment_docs (user_id, conversation_id, idx, text, speaker, person_id, start_s)
    SELECT c.user_id, s.conversation_id, s.idx, s.text, s.speaker, s.person_id, s.start_s
    FROM transcript_segments s JOIN conversations c ON c.id = s.conversation_id
    WHERE c.deleted = 0
    ORDER BY s.conversation_id, s.idx;
INSERT INTO segment_fts (segment_fts) VALUES ('rebuild');

-- Segments wait in segment_fts_pending and IndexText moves them into the
-- index in batches, as it does documents (migration 0020 says why: one
-- FTS5 write per row doubled the cost of a create); a search first brings
-- the index up to date. A segment deleted or edited while it waits only
-- leaves the queue.
CREATE TABLE segment_fts_pending (doc_id INTEGER PRIMARY KEY) STRICT;

CREATE TRIGGER segment_docs_ai AFTER INSERT ON segment_docs BEGIN
    INSERT INTO segment_fts_pending (doc_id) VALUES (new.doc_id) ON CONFLICT (doc_id) DO NOTHING;
END;
CREATE TRIGGER segment_docs_ad AFTER DELETE ON segment_docs BEGIN
    INSERT INTO segment_fts (segment_fts, rowid, text) SELECT 'delete', old.doc_id, old.text
        WHERE NOT EXISTS (SELECT 1 FROM segment_fts_pending WHERE doc_id = old.doc_id);
    DELETE FROM segment_fts_pending WHERE doc_id = old.doc_id;
END;
CREATE TRIGGER segment_docs_au AFTER UPDATE OF text ON segment_docs WHEN old.text IS NOT new.text BEGIN
    INSERT INTO segment_fts (segment_fts, rowid, text) SELECT 'delete', old.doc_id, old.text
        WHERE NOT EXISTS (SELECT 1 FROM segment_fts_pending WHERE doc_id = old.doc_id);
    INSERT INTO segment_fts_pending (doc_id) VALUES (new.doc_id) ON CONFLICT (doc_id) DO NOTHING;
END;

CREATE TRIGGER transcript_segments_search_ai AFTER INSERT ON transcript_segments BEGIN
    INSERT INTO segment_docs (user_id, conversation_id, idx, text, speaker, person_id, start_s)
        SELECT c.user_id, new.conversation_id, new.idx, new.text, new.speaker, new.person_id, new.start_s
        FROM conversations c WHERE c.id = new.conversation_id
    ON CONFLICT (conversation_id, idx) DO UPDATE SET text = excluded.text, speaker = excluded.speaker,
        person_id = excluded.person_id, start_s = excluded.start_s;
END;
CREATE TRIGGER transcript_segments_search_au AFTER UPDATE ON transcript_segments BEGIN
    UPDATE segment_docs SET idx = new.idx, text = new.text, speaker = new.speaker, person_id = new.person_id,
        start_s = new.start_s
    WHERE conversation_id = old.conversation_id AND idx = old.idx;
END;
CREATE TRIGGER transcript_segments_search_ad AFTER DELETE ON transcript_segments BEGIN
    DELETE FROM segment_docs WHERE conversation_id = old.conversation_id AND idx = old.idx;
END;

-- A deleted conversation (a soft delete: its rows stay) leaves the index.
CREATE TRIGGER conversations_deleted_segments AFTER UPDATE OF deleted ON conversations
    WHEN new.deleted = 1 AND old.deleted = 0 BEGIN
    DELETE FROM segment_docs WHERE conversation_id = new.id;
END;

-- A person filter finds the segments a person spoke.
CREATE INDEX segment_docs_person ON segment_docs (person_id) WHERE person_id IS NOT NULL;

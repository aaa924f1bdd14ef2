-- 0034: a segment (and, below, a search document) waiting for the
-- full-text index is one past a mark, not a row of its own. Every segment
-- a create wrote put a row in segment_fts_pending (0028), by a trigger,
-- and IndexText deleted it again:
-- a tenth of a from-segments save's CPU, for a queue whose order is simply
-- doc_id's. Now every segment_docs row past segment_fts_mark.indexed waits,
-- and IndexText moves them in doc_id order and advances the mark in the
-- same transaction; an insert fires no trigger of its own.
--
-- segment_fts_pending stays for a segment whose text changed after it was
-- indexed. SQLite gives a new row max(doc_id) + 1, so a doc_id comes back
-- only when the newest row is deleted: the mark then goes back to the
-- newest row left, and the next row is past it again.
CREATE TABLE segment_fts_mark (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    indexed INTEGER NOT NULL
) STRICT;
-- Everything stored is indexed but what the queue still holds.
INSERT INTO segment_fts_mark (id, indexed) VALUES (1, COALESCE((SELECT max(doc_id) FROM segment_docs), 0));

DROP TRIGGER segment_docs_ai;
-- A row leaves the index only if it is in it: at or below the mark and not
-- queued.
DROP TRIGGER segment_docs_ad;
CREATE TRIGGER segment_docs_ad AFTER DELETE ON segment_docs BEGIN
    INSERT INTO segment_fts (segment_fts, rowid, text) SELECT 'delete', old.doc_id, old.text
        WHERE old.doc_id <= (SELECT indexed FROM segment_fts_mark WHERE id = 1)
          AND NOT EXISTS (SELECT 1 FROM segment_fts_pending WHERE doc_id = old.doc_id);
    DELETE FROM segment_fts_pending WHERE doc_id = old.doc_id;
    UPDATE segment_fts_mark SET indexed = (SELECT COALESCE(max(doc_id), 0) FROM segment_docs)
        WHERE id = 1 AND indexed >= old.doc_id AND old.doc_id > (SELECT COALESCE(max(doc_id), 0) FROM segment_docs);
END;
DROP TRIGGER segment_docs_au;
CREATE TRIGGER segment_docs_au AFTER UPDATE OF text ON segment_docs WHEN old.text IS NOT new.text BEGIN
    INSERT INTO segment_fts (segment_fts, rowid, text) SELECT 'delete', old.doc_id, old.text
        WHERE old.doc_id <= (SELECT indexed FROM segment_fts_mark WHERE id = 1)
          AND NOT EXISTS (SELECT 1 FROM segment_fts_pending WHERE doc_id = old.doc_id);
    INSERT INTO segment_fts_pending (doc_id) SELECT new.doc_id
        WHERE new.doc_id <= (SELECT indexed FROM segment_fts_mark WHERE id = 1)
    ON CONFLICT (doc_id) DO NOTHING;
END;

-- The same for search documents (titles and overviews, memories, action
-- items; 0020): a document past search_fts_mark.indexed waits for its
-- kind's index, search_fts_pending holds only those edited after they were
-- indexed.
CREATE TABLE search_fts_mark (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    indexed INTEGER NOT NULL
) STRICT;
INSERT INTO search_fts_mark (id, indexed) VALUES (1, COALESCE((SELECT max(doc_id) FROM search_docs), 0));

DROP TRIGGER search_docs_ai;
DROP TRIGGER search_docs_ad;
CREATE TRIGGER search_docs_ad AFTER DELETE ON search_docs
    WHEN old.doc_id <= (SELECT indexed FROM search_fts_mark WHERE id = 1) BEGIN
    INSERT INTO search_fts_memory (search_fts_memory, rowid, text) SELECT 'delete', old.doc_id, old.text
        WHERE old.kind = 'memory' AND NOT EXISTS (SELECT 1 FROM search_fts_pending WHERE doc_id = old.doc_id);
    INSERT INTO search_fts_conversation (search_fts_conversation, rowid, text) SELECT 'delete', old.doc_id, old.text
        WHERE old.kind = 'conversation' AND NOT EXISTS (SELECT 1 FROM search_fts_pending WHERE doc_id = old.doc_id);
    INSERT INTO search_fts_action_item (search_fts_action_item, rowid, text) SELECT 'delete', old.doc_id, old.text
        WHERE old.kind = 'action_item' AND NOT EXISTS (SELECT 1 FROM search_fts_pending WHERE doc_id = old.doc_id);
    DELETE FROM search_fts_pending WHERE doc_id = old.doc_id;
    UPDATE search_fts_mark SET indexed = (SELECT COALESCE(max(doc_id), 0) FROM search_docs)
        WHERE id = 1 AND old.doc_id > (SELECT COALESCE(max(doc_id), 0) FROM search_docs);
END;
DROP TRIGGER search_docs_au;
CREATE TRIGGER search_docs_au AFTER UPDATE OF text ON search_docs WHEN old.text IS NOT new.text BEGIN
    INSERT INTO search_fts_memory (search_fts_memory, rowid, text) SELECT 'delete', old.doc_id, old.text
        WHERE old.kind = 'memory' AND old.doc_id <= (SELECT indexed FROM search_fts_mark WHERE id = 1)
          AND NOT EXISTS (SELECT 1 FROM search_fts_pending WHERE doc_id = old.doc_id);
    INSERT INTO search_fts_conversation (search_fts_conversation, rowid, text) SELECT 'delete', old.doc_id, old.text
        WHERE old.kind = 'conversation' AND old.doc_id <= (SELECT indexed FROM search_fts_mark WHERE id = 1)
          AND NOT EXISTS (SELECT 1 FROM search_fts_pending WHERE doc_id = old.doc_id);
    INSERT INTO search_fts_action_item (search_fts_action_item, rowid, text) SELECT 'delete', old.doc_id, old.text
        WHERE old.kind = 'action_item' AND old.doc_id <= (SELECT indexed FROM search_fts_mark WHERE id = 1)
          AND NOT EXISTS (SELECT 1 FROM search_fts_pending WHERE doc_id = old.doc_id);
    INSERT INTO search_fts_pending (doc_id) SELECT new.doc_id
        WHERE new.doc_id <= (SELECT indexed FROM search_fts_mark WHERE id = 1)
    ON CONFLICT (doc_id) DO NOTHING;
    DELETE FROM search_vectors WHERE doc_id = old.doc_id;
END;

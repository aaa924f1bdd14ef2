-- 0024: search_docs' unique key leads with the item's id, (item_id, kind)
-- instead of (kind, item_id). Ids are time-ordered (UUIDv7), so a create's
-- five documents (its conversation, action items and memories) now land
-- together on the key's right edge; led by the kind, they landed on three
-- leaves, one per kind, each rebalanced as it filled (3.6 of the 25 pages
-- a create writes). Uniqueness is the same, and the triggers' ON CONFLICT
-- (kind, item_id) names the same columns.
--
-- SQLite cannot change a table's constraint in place: the table is copied
-- under its name with the same rows and doc_ids (the text indexes, vectors
-- and queues refer to those), and its triggers are created again as they
-- were. With legacy_alter_table on, renaming the old table leaves what
-- refers to search_docs (views, other tables' triggers, search_vectors'
-- foreign key) naming search_docs, which the new table then is.
PRAGMA legacy_alter_table = ON;
ALTER TABLE search_docs RENAME TO search_docs_0023;
CREATE TABLE search_docs (
    doc_id   INTEGER PRIMARY KEY,
    kind     TEXT NOT NULL CHECK (kind IN ('memory', 'conversation', 'action_item')),
    item_id  TEXT NOT NULL,
    user_id  TEXT NOT NULL,
    text     TEXT NOT NULL,
    at       TEXT NOT NULL,   -- created_at, or started_at for conversations
    UNIQUE (item_id, kind)
) STRICT;
INSERT INTO search_docs (doc_id, kind, item_id, user_id, text, at)
    SELECT doc_id, kind, item_id, user_id, text, at FROM search_docs_0023 ORDER BY doc_id;
DROP TABLE search_docs_0023;
PRAGMA legacy_alter_table = OFF;

CREATE TRIGGER search_pending_ad AFTER DELETE ON search_docs BEGIN
    DELETE FROM search_pending WHERE doc_id = old.doc_id;
END;
CREATE TRIGGER search_count_ai AFTER INSERT ON search_docs BEGIN
    UPDATE search_count SET docs = docs + 1 WHERE id = 1;
END;
CREATE TRIGGER search_count_ad AFTER DELETE ON search_docs BEGIN
    UPDATE search_count SET docs = docs - 1 WHERE id = 1;
END;
CREATE TRIGGER search_pending_ai AFTER INSERT ON search_docs BEGIN
    INSERT INTO search_pending (doc_id) VALUES (new.doc_id) ON CONFLICT (doc_id) DO NOTHING;
END;
CREATE TRIGGER search_pending_au AFTER UPDATE OF text ON search_docs WHEN old.text IS NOT new.text BEGIN
    INSERT INTO search_pending (doc_id) VALUES (new.doc_id) ON CONFLICT (doc_id) DO NOTHING;
END;
CREATE TRIGGER search_docs_ai AFTER INSERT ON search_docs BEGIN
    INSERT INTO search_fts_pending (doc_id) VALUES (new.doc_id) ON CONFLICT (doc_id) DO NOTHING;
END;
CREATE TRIGGER search_docs_ad AFTER DELETE ON search_docs BEGIN
    INSERT INTO search_fts_memory (search_fts_memory, rowid, text) SELECT 'delete', old.doc_id, old.text
        WHERE old.kind = 'memory' AND NOT EXISTS (SELECT 1 FROM search_fts_pending WHERE doc_id = old.doc_id);
    INSERT INTO search_fts_conversation (search_fts_conversation, rowid, text) SELECT 'delete', old.doc_id, old.text
        WHERE old.kind = 'conversation' AND NOT EXISTS (SELECT 1 FROM search_fts_pending WHERE doc_id = old.doc_id);
    INSERT INTO search_fts_action_item (search_fts_action_item, rowid, text) SELECT 'delete', old.doc_id, old.text
        WHERE old.kind = 'action_item' AND NOT EXISTS (SELECT 1 FROM search_fts_pending WHERE doc_id = old.doc_id);
    DELETE FROM search_fts_pending WHERE doc_id = old.doc_id;
END;
CREATE TRIGGER search_docs_au AFTER UPDATE OF text ON search_docs WHEN old.text IS NOT new.text BEGIN
    INSERT INTO search_fts_memory (search_fts_memory, rowid, text) SELECT 'delete', old.doc_id, old.text
        WHERE old.kind = 'memory' AND NOT EXISTS (SELECT 1 FROM search_fts_pending WHERE doc_id = old.doc_id);
    INSERT INTO search_fts_conversation (search_fts_conversation, rowid, text) SELECT 'delete', old.doc_id, old.text
        WHERE old.kind = 'conversation' AND NOT EXISTS (SELECT 1 FROM search_fts_pending WHERE doc_id = old.doc_id);
    INSERT INTO search_fts_action_item (search_fts_action_item, rowid, text) SELECT 'delete', old.doc_id, old.text
        WHERE old.kind = 'action_item' AND NOT EXISTS (SELECT 1 FROM search_fts_pending WHERE doc_id = old.doc_id);
    INSERT INTO search_fts_pending (doc_id) VALUES (new.doc_id) ON CONFLICT (doc_id) DO NOTHING;
    DELETE FROM search_vectors WHERE doc_id = old.doc_id;
END;

-- 0022: one full-text index per kind of document instead of one index
-- with the kind as a second column. A search of one kind filtered on the
-- kind column, and BM25 computes each query phrase's document frequency
-- by walking that phrase's whole posting list: the kind filter's list is
-- every document of the kind, 100k entries in a year's memories, walked
-- on every search (3 ms of a memory search's 3.5 ms of ranking). Per kind,
-- the filter is gone, and the frequencies BM25 weighs words by are the
-- kind's own.
--
-- Each index reads its documents through a view of its kind (FTS5 takes a
-- view as external content); the triggers route deletes and edits by the
-- old document's kind; IndexText fills each from search_fts_pending.
DROP TRIGGER search_docs_ad;
DROP TRIGGER search_docs_au;
DROP TABLE search_fts;

CREATE VIEW search_docs_memory AS SELECT doc_id, text FROM search_docs WHERE kind = 'memory';
CREATE VIEW search_docs_conversation AS SELECT doc_id, text FROM search_docs WHERE kind = 'conversation';
CREATE VIEW search_docs_action_item AS SELECT doc_id, text FROM search_docs WHERE kind = 'action_item';

CREATE VIRTUAL TABLE search_fts_memory USING fts5(
    text, content = 'search_docs_memory', content_rowid = 'doc_id',
    tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE VIRTUAL TABLE search_fts_conversation USING fts5(
    text, content = 'search_docs_conversation', content_rowid = 'doc_id',
    tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE VIRTUAL TABLE search_fts_action_item USING fts5(
    text, content = 'search_docs_action_item', content_rowid = 'doc_id',
    tokenize = 'porter unicode61 remove_diacritics 2'
);
-- Merging happens while the indexer is idle (MaintainIndex), as before.
INSERT INTO search_fts_memory (search_fts_memory, rank) VALUES ('automerge', 0);
INSERT INTO search_fts_memory (search_fts_memory, rank) VALUES ('usermerge', 4);
INSERT INTO search_fts_memory (search_fts_memory, rank) VALUES ('crisismerge', 16);
INSERT INTO search_fts_conversation (search_fts_conversation, rank) VALUES ('automerge', 0);
INSERT INTO search_fts_conversation (search_fts_conversation, rank) VALUES ('usermerge', 4);
INSERT INTO search_fts_conversation (search_fts_conversation, rank) VALUES ('crisismerge', 16);
INSERT INTO search_fts_action_item (search_fts_action_item, rank) VALUES ('automerge', 0);
INSERT INTO search_fts_action_item (search_fts_action_item, rank) VALUES ('usermerge', 4);
INSERT INTO search_fts_action_item (search_fts_action_item, rank) VALUES ('crisismerge', 16);
-- One pass over every document (0.3 s per 100k), after which nothing
-- waits for the batches of IndexText.
INSERT INTO search_fts_memory (search_fts_memory) VALUES ('rebuild');
INSERT INTO search_fts_conversation (search_fts_conversation) VALUES ('rebuild');
INSERT INTO search_fts_action_item (search_fts_action_item) VALUES ('rebuild');
DELETE FROM search_fts_pending;

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

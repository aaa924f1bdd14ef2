-- 0021: the full-text index holds each document's kind, so that a search
-- of one kind counts and ranks only that kind's matches. The text search
-- ranks the newest matches of a query (a window, see store/search.go);
-- with every kind in one index, a memory search for a word that a year of
-- transcripts also holds found its window full of conversations and
-- action items, widened it eightfold, then to everything, and its cost
-- grew with the conversations. The kind is a second column that only the
-- query's filter reads: the rank is BM25 over the text alone (weight 0 for
-- the kind column).
DROP TRIGGER search_docs_ad;
DROP TRIGGER search_docs_au;
DROP TABLE search_fts;
CREATE VIRTUAL TABLE search_fts USING fts5(
    text, kind, content = 'search_docs', content_rowid = 'doc_id',
    tokenize = 'porter unicode61 remove_diacritics 2'
);
INSERT INTO search_fts (search_fts, rank) VALUES ('rank', 'bm25(1.0, 0.0)');
INSERT INTO search_fts (search_fts, rank) VALUES ('automerge', 0);
INSERT INTO search_fts (search_fts, rank) VALUES ('usermerge', 4);
INSERT INTO search_fts (search_fts, rank) VALUES ('crisismerge', 16);
-- One pass over every document (a few seconds per 100k), after which
-- nothing waits for the batches of IndexText.
INSERT INTO search_fts (search_fts) VALUES ('rebuild');
DELETE FROM search_fts_pending;

CREATE TRIGGER search_docs_ad AFTER DELETE ON search_docs BEGIN
    INSERT INTO search_fts (search_fts, rowid, text, kind) SELECT 'delete', old.doc_id, old.text, old.kind
        WHERE NOT EXISTS (SELECT 1 FROM search_fts_pending WHERE doc_id = old.doc_id);
    DELETE FROM search_fts_pending WHERE doc_id = old.doc_id;
END;

CREATE TRIGGER search_docs_au AFTER UPDATE OF text ON search_docs WHEN old.text IS NOT new.text BEGIN
    INSERT INTO search_fts (search_fts, rowid, text, kind) SELECT 'delete', old.doc_id, old.text, old.kind
        WHERE NOT EXISTS (SELECT 1 FROM search_fts_pending WHERE doc_id = old.doc_id);
    INSERT INTO search_fts_pending (doc_id) VALUES (new.doc_id) ON CONFLICT (doc_id) DO NOTHING;
    DELETE FROM search_vectors WHERE doc_id = old.doc_id;
END;

-- 0020: documents reach the full-text index in batches, not one by one in
-- the statement that wrote them. FTS5 flushes its pending terms to a new
-- index segment at every savepoint, and each INSERT that fires a search
-- trigger inside a transaction opens one: a create wrote about five
-- one-document segments, and every sixteenth flush made the writer merge
-- a level (crisismerge) inside some unlucky create, at a cost that grew
-- with the index.
--
-- search_fts_pending lists the documents whose current text the index
-- does not hold; the index holds nothing for them. IndexText moves them
-- into search_fts with one INSERT per batch (one flush), from the search
-- indexer and before any text search, so a search still finds what was
-- just written. The index is told to delete only text it holds: an FTS5
-- 'delete' of text it never got would corrupt it.
CREATE TABLE search_fts_pending (doc_id INTEGER PRIMARY KEY) STRICT;

DROP TRIGGER search_docs_ai;
CREATE TRIGGER search_docs_ai AFTER INSERT ON search_docs BEGIN
    INSERT INTO search_fts_pending (doc_id) VALUES (new.doc_id) ON CONFLICT (doc_id) DO NOTHING;
END;

DROP TRIGGER search_docs_ad;
CREATE TRIGGER search_docs_ad AFTER DELETE ON search_docs BEGIN
    INSERT INTO search_fts (search_fts, rowid, text) SELECT 'delete', old.doc_id, old.text
        WHERE NOT EXISTS (SELECT 1 FROM search_fts_pending WHERE doc_id = old.doc_id);
    DELETE FROM search_fts_pending WHERE doc_id = old.doc_id;
END;

DROP TRIGGER search_docs_au;
CREATE TRIGGER search_docs_au AFTER UPDATE OF text ON search_docs WHEN old.text IS NOT new.text BEGIN
    INSERT INTO search_fts (search_fts, rowid, text) SELECT 'delete', old.doc_id, old.text
        WHERE NOT EXISTS (SELECT 1 FROM search_fts_pending WHERE doc_id = old.doc_id);
    INSERT INTO search_fts_pending (doc_id) VALUES (new.doc_id) ON CONFLICT (doc_id) DO NOTHING;
    DELETE FROM search_vectors WHERE doc_id = old.doc_id;
END;

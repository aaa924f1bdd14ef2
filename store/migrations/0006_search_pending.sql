-- 0006: the indexer's work list. Finding the documents without a vector of
-- the current model used an anti-join over the whole index for every batch,
-- so each create cost more as the index grew. search_pending lists them
-- instead: a new or changed document joins it (triggers), the indexer takes
-- from it and removes what it stored. search_count keeps the number of
-- documents, so progress needs no COUNT over the index either.
CREATE TABLE search_pending (doc_id INTEGER PRIMARY KEY) STRICT;

INSERT INTO search_pending (doc_id)
    SELECT d.doc_id FROM search_docs d
    WHERE NOT EXISTS (SELECT 1 FROM search_vectors v WHERE v.doc_id = d.doc_id
        AND v.model = (SELECT value FROM settings WHERE key = 'embedding_model'));

-- Not INSERT OR IGNORE: inside a trigger the statement that fired it may
-- impose its own conflict policy (an upsert does), so test instead.
CREATE TRIGGER search_pending_ai AFTER INSERT ON search_docs BEGIN
    INSERT INTO search_pending (doc_id) SELECT new.doc_id
        WHERE NOT EXISTS (SELECT 1 FROM search_pending WHERE doc_id = new.doc_id);
END;
CREATE TRIGGER search_pending_au AFTER UPDATE OF text ON search_docs BEGIN
    INSERT INTO search_pending (doc_id) SELECT new.doc_id
        WHERE NOT EXISTS (SELECT 1 FROM search_pending WHERE doc_id = new.doc_id);
END;
CREATE TRIGGER search_pending_ad AFTER DELETE ON search_docs BEGIN
    DELETE FROM search_pending WHERE doc_id = old.doc_id;
END;

CREATE TABLE search_count (id INTEGER PRIMARY KEY CHECK (id = 1), docs INTEGER NOT NULL) STRICT;
INSERT INTO search_count (id, docs) VALUES (1, (SELECT COUNT(*) FROM search_docs));
CREATE TRIGGER search_count_ai AFTER INSERT ON search_docs BEGIN
    UPDATE search_count SET docs = docs + 1 WHERE id = 1;
END;
CREATE TRIGGER search_count_ad AFTER DELETE ON search_docs BEGIN
    UPDATE search_count SET docs = docs - 1 WHERE id = 1;
END;

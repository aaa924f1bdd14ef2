-- 0013: the work-list triggers add a doc with an upsert instead of
-- INSERT ... SELECT ... WHERE NOT EXISTS. That SELECT read the table it
-- inserted into, so SQLite buffered its row in a temporary b-tree: a pager
-- and page cache opened and destroyed for every doc written, whose freed
-- memory the C allocator handed back to the kernel (madvise) each time.
-- DO NOTHING is the upsert's own conflict policy, which an outer
-- statement's policy does not override (an upsert's DO UPDATE fires these
-- triggers under ABORT, which is why INSERT OR IGNORE would not do).
DROP TRIGGER search_pending_ai;
CREATE TRIGGER search_pending_ai AFTER INSERT ON search_docs BEGIN
    INSERT INTO search_pending (doc_id) VALUES (new.doc_id) ON CONFLICT (doc_id) DO NOTHING;
END;
DROP TRIGGER search_pending_au;
CREATE TRIGGER search_pending_au AFTER UPDATE OF text ON search_docs WHEN old.text IS NOT new.text BEGIN
    INSERT INTO search_pending (doc_id) VALUES (new.doc_id) ON CONFLICT (doc_id) DO NOTHING;
END;

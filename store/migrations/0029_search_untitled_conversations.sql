-- 0029: a conversation without a title is searchable too. Its search
-- document (0002) was made only when it had a title, and what was said is
-- found through that document (0028), so the words of an untitled
-- conversation (one saved before, or without, a structure) were never
-- found. Every completed conversation now has a document: the reference's
-- "Title (Category)\nOverview" when it has a title, else its overview
-- alone, which may be empty. An empty document gets no vector: there is
-- nothing to embed, and an embedding of nothing would sit near every query.
DROP TRIGGER conversations_search_ai;
CREATE TRIGGER conversations_search_ai AFTER INSERT ON conversations BEGIN
    INSERT INTO search_docs (kind, item_id, user_id, text, at)
        SELECT 'conversation', new.id, new.user_id,
               CASE WHEN new.title = '' THEN new.overview
                    ELSE new.title || ' (' || new.category || ')' || char(10) || new.overview END,
               COALESCE(new.started_at, new.created_at)
        WHERE new.status = 'completed' AND new.discarded = 0 AND new.deleted = 0
    ON CONFLICT (kind, item_id) DO UPDATE SET text = excluded.text WHERE text != excluded.text;
END;
DROP TRIGGER conversations_search_au;
CREATE TRIGGER conversations_search_au AFTER UPDATE OF title, overview, category, status, discarded, deleted ON conversations
    WHEN old.title IS NOT new.title OR old.overview IS NOT new.overview OR old.category IS NOT new.category
      OR old.status IS NOT new.status OR old.discarded IS NOT new.discarded OR old.deleted IS NOT new.deleted BEGIN
    DELETE FROM search_docs WHERE kind = 'conversation' AND item_id = new.id
        AND NOT (new.status = 'completed' AND new.discarded = 0 AND new.deleted = 0);
    INSERT INTO search_docs (kind, item_id, user_id, text, at)
        SELECT 'conversation', new.id, new.user_id,
               CASE WHEN new.title = '' THEN new.overview
                    ELSE new.title || ' (' || new.category || ')' || char(10) || new.overview END,
               COALESCE(new.started_at, new.created_at)
        WHERE new.status = 'completed' AND new.discarded = 0 AND new.deleted = 0
    ON CONFLICT (kind, item_id) DO UPDATE SET text = excluded.text WHERE text != excluded.text;
END;
DROP TRIGGER search_pending_ai;
CREATE TRIGGER search_pending_ai AFTER INSERT ON search_docs WHEN new.text != '' BEGIN
    INSERT INTO search_pending (doc_id) VALUES (new.doc_id) ON CONFLICT (doc_id) DO NOTHING;
END;

-- The untitled conversations already stored.
INSERT INTO search_docs (kind, item_id, user_id, text, at)
    SELECT 'conversation', id, user_id, overview, COALESCE(started_at, created_at)
    FROM conversations
    WHERE title = '' AND status = 'completed' AND discarded = 0 AND deleted = 0
    ORDER BY id
ON CONFLICT (kind, item_id) DO NOTHING;

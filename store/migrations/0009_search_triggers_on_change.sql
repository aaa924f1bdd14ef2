-- 0009: the search triggers on UPDATE fire only when a value they index
-- changed. An upsert or edit that rewrites a row with the same values (a
-- conversation's save rewrites every column) no longer runs their bodies:
-- for a conversation a DELETE and an upsert on search_docs, each a no-op.
-- What they do when they fire is as before (0002, 0006).

DROP TRIGGER search_docs_au;
CREATE TRIGGER search_docs_au AFTER UPDATE OF text ON search_docs WHEN old.text IS NOT new.text BEGIN
    INSERT INTO search_fts (search_fts, rowid, text) VALUES ('delete', old.doc_id, old.text);
    INSERT INTO search_fts (rowid, text) VALUES (new.doc_id, new.text);
    DELETE FROM search_vectors WHERE doc_id = old.doc_id;
END;

DROP TRIGGER search_pending_au;
CREATE TRIGGER search_pending_au AFTER UPDATE OF text ON search_docs WHEN old.text IS NOT new.text BEGIN
    INSERT INTO search_pending (doc_id) SELECT new.doc_id
        WHERE NOT EXISTS (SELECT 1 FROM search_pending WHERE doc_id = new.doc_id);
END;

DROP TRIGGER memories_search_au;
CREATE TRIGGER memories_search_au AFTER UPDATE OF content, deleted ON memories
    WHEN old.content IS NOT new.content OR old.deleted IS NOT new.deleted BEGIN
    DELETE FROM search_docs WHERE kind = 'memory' AND item_id = new.id AND new.deleted = 1;
    INSERT INTO search_docs (kind, item_id, user_id, text, at)
        SELECT 'memory', new.id, new.user_id, new.content, new.created_at WHERE new.deleted = 0
    ON CONFLICT (kind, item_id) DO UPDATE SET text = excluded.text WHERE text != excluded.text;
END;

DROP TRIGGER action_items_search_au;
CREATE TRIGGER action_items_search_au AFTER UPDATE OF description, deleted ON action_items
    WHEN old.description IS NOT new.description OR old.deleted IS NOT new.deleted BEGIN
    DELETE FROM search_docs WHERE kind = 'action_item' AND item_id = new.id AND new.deleted = 1;
    INSERT INTO search_docs (kind, item_id, user_id, text, at)
        SELECT 'action_item', new.id, new.user_id, new.description, new.created_at WHERE new.deleted = 0
    ON CONFLICT (kind, item_id) DO UPDATE SET text = excluded.text WHERE text != excluded.text;
END;

DROP TRIGGER conversations_search_au;
CREATE TRIGGER conversations_search_au AFTER UPDATE OF title, overview, category, status, discarded, deleted ON conversations
    WHEN old.title IS NOT new.title OR old.overview IS NOT new.overview OR old.category IS NOT new.category
      OR old.status IS NOT new.status OR old.discarded IS NOT new.discarded OR old.deleted IS NOT new.deleted BEGIN
    DELETE FROM search_docs WHERE kind = 'conversation' AND item_id = new.id
        AND NOT (new.status = 'completed' AND new.discarded = 0 AND new.deleted = 0 AND new.title != '');
    INSERT INTO search_docs (kind, item_id, user_id, text, at)
        SELECT 'conversation', new.id, new.user_id, new.title || ' (' || new.category || ')' || char(10) || new.overview,
               COALESCE(new.started_at, new.created_at)
        WHERE new.status = 'completed' AND new.discarded = 0 AND new.deleted = 0 AND new.title != ''
    ON CONFLICT (kind, item_id) DO UPDATE SET text = excluded.text WHERE text != excluded.text;
END;

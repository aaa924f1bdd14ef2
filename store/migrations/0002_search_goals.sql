-- 0002: goals, the search index (FTS5 over one row per searchable item) and
-- the vector store. Searchable items are memories, conversations (completed,
-- kept, not deleted) and action items. Triggers keep search_docs in step with
-- them, and search_docs keeps search_fts in step with itself, so no write
-- path can forget the index.

CREATE TABLE goals (
    id            TEXT PRIMARY KEY,
    user_id       TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    title         TEXT NOT NULL,
    goal_type     TEXT NOT NULL CHECK (goal_type IN ('boolean', 'scale', 'numeric')),
    target_value  REAL NOT NULL,
    current_value REAL NOT NULL DEFAULT 0,
    min_value     REAL NOT NULL DEFAULT 0,
    max_value     REAL NOT NULL DEFAULT 10,
    unit          TEXT,
    is_active     INTEGER NOT NULL DEFAULT 1,
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL
) STRICT;
CREATE INDEX goals_user ON goals(user_id, is_active, created_at DESC);

CREATE TABLE goal_history (
    goal_id     TEXT NOT NULL REFERENCES goals(id) ON DELETE CASCADE,
    value       REAL NOT NULL,
    recorded_at TEXT NOT NULL
) STRICT;
CREATE INDEX goal_history_goal ON goal_history(goal_id, recorded_at);

-- Key/value settings of the appliance itself (e.g. the embedding model the
-- stored vectors belong to).
CREATE TABLE settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) STRICT;

-- One row per searchable item. doc_id is an INTEGER PRIMARY KEY so that it
-- is stable (VACUUM keeps it) and can key FTS5 and the vector index.
CREATE TABLE search_docs (
    doc_id   INTEGER PRIMARY KEY,
    kind     TEXT NOT NULL CHECK (kind IN ('memory', 'conversation', 'action_item')),
    item_id  TEXT NOT NULL,
    user_id  TEXT NOT NULL,
    text     TEXT NOT NULL,
    at       TEXT NOT NULL,   -- created_at, or started_at for conversations
    UNIQUE (kind, item_id)
) STRICT;
CREATE INDEX search_docs_user ON search_docs(user_id, kind);

CREATE VIRTUAL TABLE search_fts USING fts5(
    text, content = 'search_docs', content_rowid = 'doc_id',
    tokenize = 'porter unicode61 remove_diacritics 2'
);

-- Full-precision vectors of the current embedding model, little-endian
-- float32. The binary-quantized KNN index (search_bq_<dims>, a vec0 table)
-- is created by the store for the active model's dimensions.
CREATE TABLE search_vectors (
    doc_id    INTEGER PRIMARY KEY REFERENCES search_docs(doc_id) ON DELETE CASCADE,
    model     TEXT NOT NULL,
    embedding BLOB NOT NULL
) STRICT;

CREATE TRIGGER search_docs_ai AFTER INSERT ON search_docs BEGIN
    INSERT INTO search_fts (rowid, text) VALUES (new.doc_id, new.text);
END;
CREATE TRIGGER search_docs_ad AFTER DELETE ON search_docs BEGIN
    INSERT INTO search_fts (search_fts, rowid, text) VALUES ('delete', old.doc_id, old.text);
END;
-- A changed text invalidates its vector; the indexer embeds it again.
CREATE TRIGGER search_docs_au AFTER UPDATE OF text ON search_docs BEGIN
    INSERT INTO search_fts (search_fts, rowid, text) VALUES ('delete', old.doc_id, old.text);
    INSERT INTO search_fts (rowid, text) VALUES (new.doc_id, new.text);
    DELETE FROM search_vectors WHERE doc_id = old.doc_id;
END;

-- Memories: indexed while not deleted.
CREATE TRIGGER memories_search_ai AFTER INSERT ON memories WHEN new.deleted = 0 BEGIN
    INSERT INTO search_docs (kind, item_id, user_id, text, at) VALUES ('memory', new.id, new.user_id, new.content, new.created_at)
    ON CONFLICT (kind, item_id) DO UPDATE SET text = excluded.text WHERE text != excluded.text;
END;
CREATE TRIGGER memories_search_au AFTER UPDATE OF content, deleted ON memories BEGIN
    DELETE FROM search_docs WHERE kind = 'memory' AND item_id = new.id AND new.deleted = 1;
    INSERT INTO search_docs (kind, item_id, user_id, text, at)
        SELECT 'memory', new.id, new.user_id, new.content, new.created_at WHERE new.deleted = 0
    ON CONFLICT (kind, item_id) DO UPDATE SET text = excluded.text WHERE text != excluded.text;
END;
CREATE TRIGGER memories_search_ad AFTER DELETE ON memories BEGIN
    DELETE FROM search_docs WHERE kind = 'memory' AND item_id = old.id;
END;

-- Action items: indexed while not deleted.
CREATE TRIGGER action_items_search_ai AFTER INSERT ON action_items WHEN new.deleted = 0 BEGIN
    INSERT INTO search_docs (kind, item_id, user_id, text, at) VALUES ('action_item', new.id, new.user_id, new.description, new.created_at)
    ON CONFLICT (kind, item_id) DO UPDATE SET text = excluded.text WHERE text != excluded.text;
END;
CREATE TRIGGER action_items_search_au AFTER UPDATE OF description, deleted ON action_items BEGIN
    DELETE FROM search_docs WHERE kind = 'action_item' AND item_id = new.id AND new.deleted = 1;
    INSERT INTO search_docs (kind, item_id, user_id, text, at)
        SELECT 'action_item', new.id, new.user_id, new.description, new.created_at WHERE new.deleted = 0
    ON CONFLICT (kind, item_id) DO UPDATE SET text = excluded.text WHERE text != excluded.text;
END;
CREATE TRIGGER action_items_search_ad AFTER DELETE ON action_items BEGIN
    DELETE FROM search_docs WHERE kind = 'action_item' AND item_id = old.id;
END;

-- Conversations: indexed while completed, kept and not deleted, by the
-- reference's embedding text "Title (Category)\nOverview".
CREATE TRIGGER conversations_search_ai AFTER INSERT ON conversations BEGIN
    INSERT INTO search_docs (kind, item_id, user_id, text, at)
        SELECT 'conversation', new.id, new.user_id, new.title || ' (' || new.category || ')' || char(10) || new.overview,
               COALESCE(new.started_at, new.created_at)
        WHERE new.status = 'completed' AND new.discarded = 0 AND new.deleted = 0 AND new.title != ''
    ON CONFLICT (kind, item_id) DO UPDATE SET text = excluded.text WHERE text != excluded.text;
END;
CREATE TRIGGER conversations_search_au AFTER UPDATE OF title, overview, category, status, discarded, deleted ON conversations BEGIN
    DELETE FROM search_docs WHERE kind = 'conversation' AND item_id = new.id
        AND NOT (new.status = 'completed' AND new.discarded = 0 AND new.deleted = 0 AND new.title != '');
    INSERT INTO search_docs (kind, item_id, user_id, text, at)
        SELECT 'conversation', new.id, new.user_id, new.title || ' (' || new.category || ')' || char(10) || new.overview,
               COALESCE(new.started_at, new.created_at)
        WHERE new.status = 'completed' AND new.discarded = 0 AND new.deleted = 0 AND new.title != ''
    ON CONFLICT (kind, item_id) DO UPDATE SET text = excluded.text WHERE text != excluded.text;
END;
CREATE TRIGGER conversations_search_ad AFTER DELETE ON conversations BEGIN
    DELETE FROM search_docs WHERE kind = 'conversation' AND item_id = old.id;
END;

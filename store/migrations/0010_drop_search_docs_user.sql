-- 0010: no query reads search_docs by user: text search starts from FTS5
-- and checks user and kind on the doc it found by primary key, vector
-- search starts from the KNN table partitioned by user and kind, and the
-- triggers delete by (kind, item_id). The index only cost writes: 5 of the
-- 36 WAL pages a conversation's save wrote (user and kind are the same for
-- most rows, so every insert landed on, and split, the same few leaves).
DROP INDEX search_docs_user;

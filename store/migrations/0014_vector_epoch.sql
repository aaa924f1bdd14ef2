-- 0014: a counter of vector removals. The KNN keeps each searched scope's
-- sign bits in memory; new vectors are added to that copy as they are
-- stored, and this counter tells it when one was removed (a deleted
-- memory, a discarded conversation, a model change), so that it reloads
-- instead of offering a candidate that no longer exists.
CREATE TABLE vector_epoch (id INTEGER PRIMARY KEY CHECK (id = 1), n INTEGER NOT NULL) STRICT;
INSERT INTO vector_epoch (id, n) VALUES (1, 0);
CREATE TRIGGER vector_epoch_ad AFTER DELETE ON search_vectors BEGIN
    UPDATE vector_epoch SET n = n + 1 WHERE id = 1;
END;

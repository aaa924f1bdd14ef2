-- 0035: a user's newest open action items, read by every create whose
-- transcript has tasks (the built-in extractor leaves out a task that
-- repeats an open one; store.OpenActionItemTexts), come from one index
-- that holds all they need. Through action_items_user each of the 200
-- rows was a lookup in the table for its state and description, and a
-- read connection starts with a cold page cache after every write: that
-- read cost a create more than writing its twelve segments. Only open,
-- unlocked, kept items are in it, so it stays as small as what is read;
-- the three flags are in it too (always 0) because SQLite counts an index as
-- covering only if it holds every column the query names.
CREATE INDEX action_items_open ON action_items (user_id, created_at, id, conversation_id, description,
    deleted, completed, is_locked)
    WHERE deleted = 0 AND completed = 0 AND is_locked = 0;

-- And a count of changes per user's action items, so that the list read
-- once can be kept (store/openitems.go) and checked with one small read
-- instead of read again: every insert, update or delete of an item counts,
-- whichever process made it.
CREATE TABLE action_item_changes (
    user_id TEXT PRIMARY KEY,
    n       INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
CREATE TRIGGER action_items_changes_ai AFTER INSERT ON action_items BEGIN
    INSERT INTO action_item_changes (user_id, n) VALUES (new.user_id, 1)
        ON CONFLICT (user_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER action_items_changes_au AFTER UPDATE ON action_items BEGIN
    INSERT INTO action_item_changes (user_id, n) VALUES (old.user_id, 1)
        ON CONFLICT (user_id) DO UPDATE SET n = n + 1;
    INSERT INTO action_item_changes (user_id, n) SELECT new.user_id, 1 WHERE new.user_id IS NOT old.user_id
        ON CONFLICT (user_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER action_items_changes_ad AFTER DELETE ON action_items BEGIN
    INSERT INTO action_item_changes (user_id, n) VALUES (old.user_id, 1)
        ON CONFLICT (user_id) DO UPDATE SET n = n + 1;
END;

-- 0023: the per-user list indexes ascend, and the lists read them
-- backwards (newest first, ties by id, newest id first). New rows carry the
-- newest times, so they now land on each index's right edge, which SQLite
-- grows by appending a page. Descending, they landed on the left edge of
-- the user's range, and inserting before the start of a full page
-- rebalanced it with its siblings: about three pages rewritten per memory
-- or action item, once per save (the WAL of one create held 5 pages of
-- conversations_user_started, 4 of memories_user and 4 of action_items_user).
DROP INDEX conversations_user_started;
CREATE INDEX conversations_user_started ON conversations(user_id, deleted, started_at, created_at, id);
DROP INDEX memories_user;
CREATE INDEX memories_user ON memories(user_id, deleted, created_at, id);
DROP INDEX action_items_user;
CREATE INDEX action_items_user ON action_items(user_id, deleted, created_at, id);

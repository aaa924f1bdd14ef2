-- 0012: the per-user list indexes cover the lists' whole ORDER BY, so a
-- page of the newest conversations, memories or action items is read in
-- index order and the LIMIT stops the scan. With the old indexes the
-- order's tie-breakers needed a sort of all the user's rows, and once
-- ANALYZE had seen that a household has one user, the planner preferred to
-- scan and sort the whole conversations table for every page.
DROP INDEX conversations_user_started;
CREATE INDEX conversations_user_started ON conversations(user_id, deleted, started_at DESC, created_at DESC, id);
DROP INDEX memories_user;
CREATE INDEX memories_user ON memories(user_id, deleted, created_at DESC, id);
DROP INDEX action_items_user;
CREATE INDEX action_items_user ON action_items(user_id, deleted, created_at DESC, id);

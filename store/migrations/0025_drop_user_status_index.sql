-- 0025: conversations_user_status (user_id, status) goes. Its one reader,
-- finding a user's recording in progress, reads the partial index of
-- in-progress conversations instead (a handful of rows however many
-- conversations pile up), and every create no longer writes a page of it.
DROP INDEX conversations_user_status;

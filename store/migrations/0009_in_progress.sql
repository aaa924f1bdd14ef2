-- 0009: find recordings whose silence timeout has passed without scanning
-- every conversation. Only in_progress rows are indexed, so the index stays
-- a handful of entries however many conversations pile up.
CREATE INDEX conversations_in_progress ON conversations(finished_at) WHERE status = 'in_progress' AND deleted = 0;

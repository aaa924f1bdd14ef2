-- 0005: live recordings end after their own silence timeout. idle_at is
-- when an in_progress conversation's silence timeout runs out (its last
-- speech plus silence_timeout_s); both are NULL for conversations that were
-- never live. The partial index holds only in_progress rows, so the sweep
-- that looks for expired recordings stays a handful of entries however many
-- conversations pile up.
ALTER TABLE conversations ADD COLUMN silence_timeout_s INTEGER;
ALTER TABLE conversations ADD COLUMN idle_at TEXT;
CREATE INDEX conversations_in_progress ON conversations(idle_at, finished_at) WHERE status = 'in_progress' AND deleted = 0;

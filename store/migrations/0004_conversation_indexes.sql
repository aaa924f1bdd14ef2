-- 0004: find a conversation's memories without scanning the user's.
CREATE INDEX memories_conversation ON memories(conversation_id);

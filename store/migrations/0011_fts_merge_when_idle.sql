-- 0011: FTS5 no longer merges index segments inside the transaction that
-- wrote them. With automerge on, every 64 leaf pages written made some
-- unlucky create merge 64 × (number of levels) pages before it could
-- commit. The search indexer merges while idle instead (MaintainIndex:
-- 'merge' in bounded steps, whenever a level has usermerge = 4 segments).
-- crisismerge stays the backstop when the indexer cannot keep up: a level
-- that reaches 16 segments is merged by the writer, as before.
INSERT INTO search_fts (search_fts, rank) VALUES ('automerge', 0);
INSERT INTO search_fts (search_fts, rank) VALUES ('usermerge', 4);
INSERT INTO search_fts (search_fts, rank) VALUES ('crisismerge', 16);

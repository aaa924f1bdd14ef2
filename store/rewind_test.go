package store_test

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/hearth-appliance/hearth/store"
)

// undo holds, for each migration that a test rewinds past, the statements
// that take its schema away again, so that store.Open applies it anew on
// a database that already holds data. Data a migration adds for existing
// rows (a backfill) is the test's to take away.
var undo = map[int][]string{
	28: {`DROP TRIGGER transcript_segments_search_ai`, `DROP TRIGGER transcript_segments_search_au`,
		`DROP TRIGGER transcript_segments_search_ad`, `DROP TRIGGER conversations_deleted_segments`,
		`DROP TABLE segment_fts`, `DROP TABLE segment_docs`, `DROP TABLE segment_fts_pending`},
	29: {}, // search documents for untitled conversations: data only
	30: {`DROP TABLE retranscribe_jobs`},
	31: {`DROP TABLE oauth_clients`},
	32: {`DROP INDEX folders_user_category`, `ALTER TABLE folders DROP COLUMN icon`,
		`ALTER TABLE folders DROP COLUMN position`, `ALTER TABLE folders DROP COLUMN is_system`,
		`ALTER TABLE folders DROP COLUMN category_mapping`},
	33: {}, // kept conversations filed in the system folders: data only
	34: {`DROP TABLE segment_fts_mark`, `DROP TRIGGER segment_docs_ad`, `DROP TRIGGER segment_docs_au`,
		`DROP TABLE search_fts_mark`, `DROP TRIGGER search_docs_ad`, `DROP TRIGGER search_docs_au`,
		// The search documents' triggers 0034 replaces (as 0020-0022 left them).
		`CREATE TRIGGER search_docs_ai AFTER INSERT ON search_docs BEGIN
			INSERT INTO search_fts_pending (doc_id) VALUES (new.doc_id) ON CONFLICT (doc_id) DO NOTHING;
		END`,
		`CREATE TRIGGER search_docs_ad AFTER DELETE ON search_docs BEGIN
			INSERT INTO search_fts_memory (search_fts_memory, rowid, text) SELECT 'delete', old.doc_id, old.text
				WHERE old.kind = 'memory' AND NOT EXISTS (SELECT 1 FROM search_fts_pending WHERE doc_id = old.doc_id);
			INSERT INTO search_fts_conversation (search_fts_conversation, rowid, text) SELECT 'delete', old.doc_id, old.text
				WHERE old.kind = 'conversation' AND NOT EXISTS (SELECT 1 FROM search_fts_pending WHERE doc_id = old.doc_id);
			INSERT INTO search_fts_action_item (search_fts_action_item, rowid, text) SELECT 'delete', old.doc_id, old.text
				WHERE old.kind = 'action_item' AND NOT EXISTS (SELECT 1 FROM search_fts_pending WHERE doc_id = old.doc_id);
			DELETE FROM search_fts_pending WHERE doc_id = old.doc_id;
		END`,
		`CREATE TRIGGER search_docs_au AFTER UPDATE OF text ON search_docs WHEN old.text IS NOT new.text BEGIN
			INSERT INTO search_fts_memory (search_fts_memory, rowid, text) SELECT 'delete', old.doc_id, old.text
				WHERE old.kind = 'memory' AND NOT EXISTS (SELECT 1 FROM search_fts_pending WHERE doc_id = old.doc_id);
			INSERT INTO search_fts_conversation (search_fts_conversation, rowid, text) SELECT 'delete', old.doc_id, old.text
				WHERE old.kind = 'conversation' AND NOT EXISTS (SELECT 1 FROM search_fts_pending WHERE doc_id = old.doc_id);
			INSERT INTO search_fts_action_item (search_fts_action_item, rowid, text) SELECT 'delete', old.doc_id, old.text
				WHERE old.kind = 'action_item' AND NOT EXISTS (SELECT 1 FROM search_fts_pending WHERE doc_id = old.doc_id);
			INSERT INTO search_fts_pending (doc_id) VALUES (new.doc_id) ON CONFLICT (doc_id) DO NOTHING;
			DELETE FROM search_vectors WHERE doc_id = old.doc_id;
		END`,
		// The segments' triggers 0034 replaces (0028's).
		`CREATE TRIGGER segment_docs_ai AFTER INSERT ON segment_docs BEGIN
			INSERT INTO segment_fts_pending (doc_id) VALUES (new.doc_id) ON CONFLICT (doc_id) DO NOTHING;
		END`,
		`CREATE TRIGGER segment_docs_ad AFTER DELETE ON segment_docs BEGIN
			INSERT INTO segment_fts (segment_fts, rowid, text) SELECT 'delete', old.doc_id, old.text
				WHERE NOT EXISTS (SELECT 1 FROM segment_fts_pending WHERE doc_id = old.doc_id);
			DELETE FROM segment_fts_pending WHERE doc_id = old.doc_id;
		END`,
		`CREATE TRIGGER segment_docs_au AFTER UPDATE OF text ON segment_docs WHEN old.text IS NOT new.text BEGIN
			INSERT INTO segment_fts (segment_fts, rowid, text) SELECT 'delete', old.doc_id, old.text
				WHERE NOT EXISTS (SELECT 1 FROM segment_fts_pending WHERE doc_id = old.doc_id);
			INSERT INTO segment_fts_pending (doc_id) VALUES (new.doc_id) ON CONFLICT (doc_id) DO NOTHING;
		END`},
	35: {`DROP INDEX action_items_open`, `DROP TRIGGER action_items_changes_ai`, `DROP TRIGGER action_items_changes_au`,
		`DROP TRIGGER action_items_changes_ad`, `DROP TABLE action_item_changes`},
	// Segments written once: back to a table without a rowid and the
	// segment_docs copy, with 0028's triggers and 0034's (doc_ids kept).
	36: {`DROP TRIGGER conversations_undeleted_segments`, `DROP TRIGGER conversations_deleted_segments`,
		`DROP TRIGGER conversations_delete_segments`, `DROP VIEW segment_docs`,
		`CREATE TABLE segment_docs (
			doc_id INTEGER PRIMARY KEY, user_id TEXT NOT NULL, conversation_id TEXT NOT NULL, idx INTEGER NOT NULL,
			text TEXT NOT NULL, speaker TEXT NOT NULL, person_id TEXT, start_s REAL NOT NULL,
			UNIQUE (conversation_id, idx)) STRICT`,
		`INSERT INTO segment_docs (doc_id, user_id, conversation_id, idx, text, speaker, person_id, start_s)
			SELECT s.doc_id, c.user_id, s.conversation_id, s.idx, s.text, s.speaker, s.person_id, s.start_s
			FROM transcript_segments s JOIN conversations c ON c.id = s.conversation_id WHERE c.deleted = 0`,
		`CREATE TABLE transcript_segments_0035 (
			conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE, idx INTEGER NOT NULL,
			id TEXT NOT NULL, text TEXT NOT NULL, speaker TEXT NOT NULL, speaker_id INTEGER NOT NULL,
			is_user INTEGER NOT NULL, person_id TEXT, start_s REAL NOT NULL, end_s REAL NOT NULL,
			translations TEXT NOT NULL DEFAULT '[]', speech_profile_processed INTEGER NOT NULL DEFAULT 1,
			stt_provider TEXT, PRIMARY KEY (conversation_id, idx)) STRICT, WITHOUT ROWID`,
		`INSERT INTO transcript_segments_0035 SELECT conversation_id, idx, id, text, speaker, speaker_id, is_user,
			person_id, start_s, end_s, translations, speech_profile_processed, stt_provider FROM transcript_segments`,
		`DROP TABLE transcript_segments`,
		`ALTER TABLE transcript_segments_0035 RENAME TO transcript_segments`,
		`CREATE INDEX transcript_segments_person ON transcript_segments(person_id) WHERE person_id IS NOT NULL`,
		`CREATE INDEX segment_docs_person ON segment_docs (person_id) WHERE person_id IS NOT NULL`,
		`CREATE TRIGGER transcript_segments_search_ai AFTER INSERT ON transcript_segments BEGIN
			INSERT INTO segment_docs (user_id, conversation_id, idx, text, speaker, person_id, start_s)
				SELECT c.user_id, new.conversation_id, new.idx, new.text, new.speaker, new.person_id, new.start_s
				FROM conversations c WHERE c.id = new.conversation_id
			ON CONFLICT (conversation_id, idx) DO UPDATE SET text = excluded.text, speaker = excluded.speaker,
				person_id = excluded.person_id, start_s = excluded.start_s;
		END`,
		`CREATE TRIGGER transcript_segments_search_au AFTER UPDATE ON transcript_segments BEGIN
			UPDATE segment_docs SET idx = new.idx, text = new.text, speaker = new.speaker, person_id = new.person_id,
				start_s = new.start_s
			WHERE conversation_id = old.conversation_id AND idx = old.idx;
		END`,
		`CREATE TRIGGER transcript_segments_search_ad AFTER DELETE ON transcript_segments BEGIN
			DELETE FROM segment_docs WHERE conversation_id = old.conversation_id AND idx = old.idx;
		END`,
		`CREATE TRIGGER conversations_deleted_segments AFTER UPDATE OF deleted ON conversations
			WHEN new.deleted = 1 AND old.deleted = 0 BEGIN
			DELETE FROM segment_docs WHERE conversation_id = new.id;
		END`,
		`CREATE TRIGGER segment_docs_ad AFTER DELETE ON segment_docs BEGIN
			INSERT INTO segment_fts (segment_fts, rowid, text) SELECT 'delete', old.doc_id, old.text
				WHERE old.doc_id <= (SELECT indexed FROM segment_fts_mark WHERE id = 1)
				  AND NOT EXISTS (SELECT 1 FROM segment_fts_pending WHERE doc_id = old.doc_id);
			DELETE FROM segment_fts_pending WHERE doc_id = old.doc_id;
			UPDATE segment_fts_mark SET indexed = (SELECT COALESCE(max(doc_id), 0) FROM segment_docs)
				WHERE id = 1 AND indexed >= old.doc_id AND old.doc_id > (SELECT COALESCE(max(doc_id), 0) FROM segment_docs);
		END`,
		`CREATE TRIGGER segment_docs_au AFTER UPDATE OF text ON segment_docs WHEN old.text IS NOT new.text BEGIN
			INSERT INTO segment_fts (segment_fts, rowid, text) SELECT 'delete', old.doc_id, old.text
				WHERE old.doc_id <= (SELECT indexed FROM segment_fts_mark WHERE id = 1)
				  AND NOT EXISTS (SELECT 1 FROM segment_fts_pending WHERE doc_id = old.doc_id);
			INSERT INTO segment_fts_pending (doc_id) SELECT new.doc_id
				WHERE new.doc_id <= (SELECT indexed FROM segment_fts_mark WHERE id = 1)
			ON CONFLICT (doc_id) DO NOTHING;
		END`},
}

// rewind takes the closed database in dir back to the schema before
// migration from, newest migration first, after running before (the
// test's own statements on the data), so that the next store.Open
// applies from and every migration after it.
func rewind(t *testing.T, dir string, from int, before ...string) {
	t.Helper()
	raw, err := sql.Open("sqlite3", "file:"+filepath.Join(dir, store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	stmts := append([]string(nil), before...)
	for v := latestMigration(t); v >= from; v-- {
		u, ok := undo[v]
		if !ok {
			t.Fatalf("migration %04d has no undo in store/rewind_test.go: add the statements that take its schema away", v)
		}
		stmts = append(stmts, u...)
	}
	stmts = append(stmts, `DELETE FROM schema_migrations WHERE version >= `+strconv.Itoa(from))
	for _, stmt := range stmts {
		if _, err := raw.Exec(stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
}

// migrateAgain rewinds the closed database in dir to before migration
// from (see rewind) and opens it, which applies from and the migrations
// after it; the database is closed when the test ends.
func migrateAgain(t *testing.T, dir string, from int, before ...string) *store.DB {
	t.Helper()
	rewind(t, dir, from, before...)
	db, err := store.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// latestMigration is the highest numbered file in store/migrations.
func latestMigration(t *testing.T) int {
	t.Helper()
	entries, err := os.ReadDir("migrations")
	if err != nil {
		t.Fatal(err)
	}
	latest := 0
	for _, e := range entries {
		num, _, ok := strings.Cut(e.Name(), "_")
		if v, err := strconv.Atoi(num); ok && err == nil && strings.HasSuffix(e.Name(), ".sql") {
			latest = max(latest, v)
		}
	}
	return latest
}

// TestEveryNewMigrationCanBeRewound: the migration tests rewind the
// schema past the newest migrations; each one from the oldest they rewind
// past on needs its undo, or they fail with a message far from its cause.
func TestEveryNewMigrationCanBeRewound(t *testing.T) {
	for v := 28; v <= latestMigration(t); v++ {
		if _, ok := undo[v]; !ok {
			t.Errorf("migration %04d has no undo in store/rewind_test.go", v)
		}
	}
}

package store_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/store"
)

// MustOpenDB opens a database in a fresh temp dir (a real file, never :memory:).
func MustOpenDB(tb testing.TB) *store.DB {
	tb.Helper()
	db, err := store.Open(context.Background(), tb.TempDir())
	if err != nil {
		tb.Fatalf("open: %v", err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

func mustUser(tb testing.TB, db *store.DB, id string) *appliance.User {
	tb.Helper()
	u := &appliance.User{ID: id, Name: "User " + id, CreatedAt: time.Now()}
	if err := db.CreateUser(context.Background(), u); err != nil {
		tb.Fatalf("create user: %v", err)
	}
	return u
}

func TestOpen_SettingsTakeEffect(t *testing.T) {
	t.Parallel()
	db := MustOpenDB(t)
	ctx := context.Background()
	for _, tc := range []struct{ query, want string }{
		{"PRAGMA journal_mode", "wal"},
		{"PRAGMA foreign_keys", "1"},
		{"PRAGMA synchronous", "1"}, // NORMAL
		{"PRAGMA busy_timeout", "5000"},
		{"PRAGMA cache_size", "-1500"},
		{"PRAGMA query_only", "1"}, // the read pool refuses writes
		{"PRAGMA application_id", fmt.Sprint(0x48525448)},
	} {
		got, err := db.QueryString(ctx, tc.query)
		if err != nil {
			t.Fatalf("%s: %v", tc.query, err)
		}
		if got != tc.want {
			t.Errorf("%s = %q, want %q", tc.query, got, tc.want)
		}
	}
	// The writer's own settings.
	for _, tc := range []struct{ query, want string }{
		{"PRAGMA cache_size", "-3000"},
		{"PRAGMA query_only", "0"},
		// A backstop: the checkpointer copies the log long before.
		{"PRAGMA wal_autocheckpoint", "4000"},
		{"PRAGMA temp_store", "2"}, // MEMORY: savepoint journals stay off the disk
	} {
		if got, err := db.WriterString(ctx, tc.query); err != nil || got != tc.want {
			t.Errorf("writer: %s = %q (%v), want %q", tc.query, got, err, tc.want)
		}
	}
}

func TestOpen_ExtensionsLoaded(t *testing.T) {
	t.Parallel()
	db := MustOpenDB(t)
	ctx := context.Background()
	v, err := db.QueryString(ctx, "SELECT vec_version()")
	if err != nil || v == "" {
		t.Fatalf("vec_version() = %q, %v; sqlite-vec is not loaded", v, err)
	}
	got, err := db.QueryString(ctx, "SELECT vec_distance_cosine('[1,0]', '[0,1]')")
	if err != nil || (got != "1" && got != "1.0") {
		t.Fatalf("vec_distance_cosine = %q, %v; want 1.0", got, err)
	}
	if _, err := db.QueryString(ctx, "SELECT fts5_source_id()"); err != nil {
		t.Fatalf("fts5 not compiled in: %v", err)
	}
}

func TestOpen_ReopenKeepsDataAndSkipsMigrations(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ctx := context.Background()
	db, err := store.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	mustUser(t, db, "u1")
	db.Close()

	db, err = store.Open(ctx, dir)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer db.Close()
	if _, err := db.User(ctx, "u1"); err != nil {
		t.Fatalf("user after reopen: %v", err)
	}
	n, err := db.QueryString(ctx, "SELECT COUNT(*) FROM schema_migrations")
	if err != nil || n == "0" {
		t.Fatalf("schema_migrations count = %q, %v", n, err)
	}
}

func TestKeys(t *testing.T) {
	t.Parallel()
	db := MustOpenDB(t)
	ctx := context.Background()
	mustUser(t, db, "u1")
	k := &appliance.Key{ID: "k1", UserID: "u1", Kind: appliance.KeyKindDev, Name: "ci", Hash: "abc",
		Display: "hearth_dev_1234...abcd", Scopes: []string{"conversations:read"}, CreatedAt: time.Now()}
	if err := db.CreateKey(ctx, k); err != nil {
		t.Fatal(err)
	}
	t.Run("DuplicateHashConflicts", func(t *testing.T) {
		dup := *k
		dup.ID = "k2"
		if err := db.CreateKey(ctx, &dup); appliance.ErrorCode(err) != appliance.ECONFLICT {
			t.Fatalf("err = %v, want conflict", err)
		}
	})
	t.Run("ByHash", func(t *testing.T) {
		got, err := db.KeyByHash(ctx, "abc")
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(k.Scopes, got.Scopes); diff != "" || got.UserID != "u1" || got.RevokedAt != nil {
			t.Fatalf("key = %+v (scopes diff %s)", got, diff)
		}
		if _, err := db.KeyByHash(ctx, "nope"); appliance.ErrorCode(err) != appliance.ENOTFOUND {
			t.Fatalf("unknown hash err = %v", err)
		}
	})
	t.Run("RevokeOnlyOwn", func(t *testing.T) {
		mustUser(t, db, "u2")
		if err := db.RevokeKey(ctx, "u2", "k1", time.Now()); appliance.ErrorCode(err) != appliance.ENOTFOUND {
			t.Fatalf("revoking another user's key: err = %v", err)
		}
	})
}

func sampleConversation(id, user string) *appliance.Conversation {
	now := time.Now().UTC().Truncate(time.Microsecond)
	start := now.Add(-time.Minute)
	end := now
	acc := 5.0
	pid := "p1"
	return &appliance.Conversation{
		ID: id, UserID: user, CreatedAt: now, UpdatedAt: now, StartedAt: &start, FinishedAt: &end,
		Source: appliance.SourcePhone, Language: "en", Status: appliance.StatusCompleted,
		Structured: appliance.Structured{Title: "Budget Review", Overview: "We reviewed the budget.", Emoji: "💼",
			Category: "business", Events: []appliance.Event{{Title: "Sync", Start: end, Duration: 30}},
			ActionItems: []appliance.ActionItem{{ID: id + "-a1", Description: "Send the report"}}},
		TranscriptSegments: []appliance.TranscriptSegment{
			{ID: "s1", Text: "Let's review the budget.", Speaker: "SPEAKER_00", IsUser: true, Start: 0, End: 2, SpeechProfileProcessed: true},
			{ID: "s2", Text: "Sure.", Speaker: "SPEAKER_01", SpeakerID: 1, PersonID: &pid, Start: 2, End: 3},
		},
		Geolocation:  &appliance.Geolocation{Latitude: 52.5, Longitude: 13.4, Accuracy: &acc},
		ExternalData: map[string]any{"conversation_role": "meeting"},
		Visibility:   appliance.VisibilityPrivate,
	}
}

func TestConversation_RoundTrip(t *testing.T) {
	t.Parallel()
	db := MustOpenDB(t)
	ctx := context.Background()
	mustUser(t, db, "u1")
	c := sampleConversation("c1", "u1")
	if err := db.SaveConversation(ctx, c); err != nil {
		t.Fatal(err)
	}
	got, err := db.Conversation(ctx, "u1", "c1")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(c, got, cmpopts.EquateEmpty()); diff != "" {
		t.Fatalf("round trip (-saved +loaded):\n%s", diff)
	}
}

func TestConversation_PerUserIsolation(t *testing.T) {
	t.Parallel()
	db := MustOpenDB(t)
	ctx := context.Background()
	mustUser(t, db, "u1")
	mustUser(t, db, "u2")
	if err := db.SaveConversation(ctx, sampleConversation("c1", "u1")); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Conversation(ctx, "u2", "c1"); appliance.ErrorCode(err) != appliance.ENOTFOUND {
		t.Fatalf("u2 reading u1's conversation: err = %v", err)
	}
	list, err := db.Conversations(ctx, "u2", appliance.ConversationFilter{})
	if err != nil || len(list) != 0 {
		t.Fatalf("u2 list = %d, %v", len(list), err)
	}
	for name, fn := range map[string]func() error{
		"title":     func() error { return db.SetConversationTitle(ctx, "u2", "c1", "x") },
		"discarded": func() error { return db.DiscardConversation(ctx, "u2", "c1", true) },
		"delete":    func() error { return db.DeleteConversation(ctx, "u2", "c1") },
	} {
		if err := fn(); appliance.ErrorCode(err) != appliance.ENOTFOUND {
			t.Errorf("%s by another user: err = %v, want not found", name, err)
		}
	}
	// Saving over another user's id must not take it over.
	steal := sampleConversation("c1", "u2")
	steal.Structured.Title = "stolen"
	_ = db.SaveConversation(ctx, steal)
	got, err := db.Conversation(ctx, "u1", "c1")
	if err != nil || got.Structured.Title != "Budget Review" {
		t.Fatalf("after foreign save: %v, title %q", err, got.Structured.Title)
	}
}

func TestConversation_SoftDelete(t *testing.T) {
	t.Parallel()
	db := MustOpenDB(t)
	ctx := context.Background()
	mustUser(t, db, "u1")
	if err := db.SaveConversation(ctx, sampleConversation("c1", "u1")); err != nil {
		t.Fatal(err)
	}
	if err := db.DeleteConversation(ctx, "u1", "c1"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Conversation(ctx, "u1", "c1"); appliance.ErrorCode(err) != appliance.ENOTFOUND {
		t.Fatalf("deleted conversation readable: %v", err)
	}
	if n, _ := db.QueryString(ctx, "SELECT COUNT(*) FROM conversations WHERE id = 'c1' AND deleted = 1"); n != "1" {
		t.Fatalf("soft-deleted row count = %s, want 1", n)
	}
}

func TestConversations_Filters(t *testing.T) {
	t.Parallel()
	db := MustOpenDB(t)
	ctx := context.Background()
	mustUser(t, db, "u1")
	base := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	mk := func(id string, day int, cat appliance.Category, mut func(*appliance.Conversation)) {
		c := sampleConversation(id, "u1")
		s := base.AddDate(0, 0, day)
		c.StartedAt = &s
		c.Structured.Category = cat
		if mut != nil {
			mut(c)
		}
		if err := db.SaveConversation(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	mk("a", 0, "business", nil)
	mk("b", 1, "health", nil)
	mk("c", 2, "business", nil)
	mk("discarded", 3, "business", func(c *appliance.Conversation) { c.Discarded = true })
	mk("locked", 4, "business", func(c *appliance.Conversation) { c.IsLocked = true })
	mk("processing", 5, "business", func(c *appliance.Conversation) { c.Status = appliance.StatusProcessing })

	ids := func(f appliance.ConversationFilter) []string {
		t.Helper()
		f.Statuses = []appliance.ConversationStatus{appliance.StatusCompleted}
		cs, err := db.Conversations(ctx, "u1", f)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, c := range cs {
			out = append(out, c.ID)
		}
		return out
	}
	d1, d2 := base.AddDate(0, 0, 1), base.AddDate(0, 0, 2)
	for _, tc := range []struct {
		name string
		f    appliance.ConversationFilter
		want []string
	}{
		{"NewestFirst", appliance.ConversationFilter{}, []string{"c", "b", "a"}},
		{"Limit", appliance.ConversationFilter{Limit: 1}, []string{"c"}},
		{"Offset", appliance.ConversationFilter{Limit: 2, Offset: 1}, []string{"b", "a"}},
		{"Category", appliance.ConversationFilter{Categories: []appliance.Category{"health"}}, []string{"b"}},
		{"StartDate", appliance.ConversationFilter{StartDate: &d1}, []string{"c", "b"}},
		{"EndDate", appliance.ConversationFilter{EndDate: &d1}, []string{"b", "a"}},
		{"Range", appliance.ConversationFilter{StartDate: &d1, EndDate: &d2}, []string{"c", "b"}},
		{"IncludeDiscarded", appliance.ConversationFilter{IncludeDiscarded: true}, []string{"discarded", "c", "b", "a"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, ids(tc.f)); diff != "" {
				t.Fatalf("ids (-want +got):\n%s", diff)
			}
		})
	}
}

func TestClaimConversation_ConcurrentRetriesClaimOnce(t *testing.T) {
	t.Parallel()
	db := MustOpenDB(t)
	ctx := context.Background()
	mustUser(t, db, "u1")
	const n = 16
	var wg sync.WaitGroup
	var mu sync.Mutex
	claims := 0
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := sampleConversation("same", "u1")
			c.Status = appliance.StatusProcessing
			got, claimed, err := db.ClaimConversation(ctx, c, time.Now().Add(-15*time.Minute))
			if err != nil {
				t.Error(err)
				return
			}
			if got.ID != "same" {
				t.Errorf("id = %q", got.ID)
			}
			if claimed {
				mu.Lock()
				claims++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if claims != 1 {
		t.Fatalf("claims = %d, want exactly 1", claims)
	}
}

func TestClaimConversation_StaleClaimIsRedone(t *testing.T) {
	t.Parallel()
	db := MustOpenDB(t)
	ctx := context.Background()
	mustUser(t, db, "u1")
	old := time.Now().Add(-time.Hour)
	db.Now = func() time.Time { return old }
	c := sampleConversation("c1", "u1")
	c.Status = appliance.StatusProcessing
	if _, claimed, err := db.ClaimConversation(ctx, c, old.Add(-15*time.Minute)); err != nil || !claimed {
		t.Fatalf("first claim: %v, %v", claimed, err)
	}
	db.Now = time.Now
	if _, claimed, err := db.ClaimConversation(ctx, c, time.Now().Add(-15*time.Minute)); err != nil || !claimed {
		t.Fatalf("claim over a stale claim: claimed=%v err=%v, want a new claim", claimed, err)
	}
	// A completed conversation is never reclaimed, however old.
	c.Status = appliance.StatusCompleted
	if err := db.SaveConversation(ctx, c); err != nil {
		t.Fatal(err)
	}
	got, claimed, err := db.ClaimConversation(ctx, c, time.Now().Add(time.Hour))
	if err != nil || claimed || got.Status != appliance.StatusCompleted {
		t.Fatalf("claim over completed: claimed=%v status=%v err=%v", claimed, got.Status, err)
	}
}

func TestConversationHead_LeavesOutSegments(t *testing.T) {
	t.Parallel()
	db := MustOpenDB(t)
	ctx := context.Background()
	mustUser(t, db, "u1")
	c := sampleConversation("c1", "u1")
	if err := db.SaveConversation(ctx, c); err != nil {
		t.Fatal(err)
	}
	head, err := db.ConversationHead(ctx, "u1", "c1")
	if err != nil {
		t.Fatal(err)
	}
	if head.TranscriptSegments != nil || head.Structured.Title != c.Structured.Title || len(head.Structured.ActionItems) != 1 {
		t.Fatalf("head = %+v", head)
	}
	if _, err := db.ConversationHead(ctx, "u2", "c1"); appliance.ErrorCode(err) != appliance.ENOTFOUND {
		t.Fatalf("other user's head: %v", err)
	}
}

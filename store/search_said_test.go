package store_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/store"
)

// TestSearch_SaidWordsFollowWrites: the transcript's words are found as
// segments are written, upserted by id and deleted with their
// conversation; a filter on the conversation is applied by the query.
func TestSearch_SaidWordsFollowWrites(t *testing.T) {
	t.Parallel()
	db := MustOpenDB(t)
	ctx := context.Background()
	user := MustCreateUser(t, db, "Ada")
	now := time.Now().UTC()
	found := func(word string, q appliance.SearchQuery) map[string]appliance.SearchHit {
		t.Helper()
		q.Kind, q.Text, q.Limit = appliance.KindConversation, word, 10
		hits, err := db.Search(ctx, user, q)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]appliance.SearchHit{}
		for _, h := range hits {
			out[h.ItemID] = h
		}
		return out
	}

	fed := lifecycleConversation("fed", user, appliance.StatusCompleted, now)
	fed.Structured.Title, fed.Structured.Category = "Morning", appliance.Category("family")
	fed.TranscriptSegments = []appliance.TranscriptSegment{
		{ID: "f0", Text: "Good morning", Speaker: "SPEAKER_00"},
		{ID: "f1", Text: "We fed the goose by the pond", Speaker: "SPEAKER_01", Start: 12.5, End: 15},
	}
	if err := db.SaveConversation(ctx, fed); err != nil {
		t.Fatal(err)
	}
	h, ok := found("goose", appliance.SearchQuery{})["fed"]
	if !ok || h.Start != 12.5 || !strings.Contains(h.Snippet, "<mark>goose</mark>") || h.Speaker != "SPEAKER_01" {
		t.Fatalf("goose: %+v (found %v)", h, ok)
	}
	// A caller that shows no snippet gets the same hit, where it was said,
	// without one.
	if h, ok := found("goose", appliance.SearchQuery{NoSnippets: true})["fed"]; !ok || h.Start != 12.5 || h.Snippet != "" || h.Speaker != "SPEAKER_01" {
		t.Errorf("goose without snippets: %+v (found %v)", h, ok)
	}
	if got := found("goose", appliance.SearchQuery{Category: "work"}); len(got) != 0 {
		t.Errorf("category work found %v", got)
	}
	starred := true
	if got := found("goose", appliance.SearchQuery{Starred: &starred}); len(got) != 0 {
		t.Errorf("starred found %v", got)
	}
	if got := found("goose", appliance.SearchQuery{Category: "family", Person: "SPEAKER_01"}); len(got) != 1 {
		t.Errorf("family, said by SPEAKER_01: found %v", got)
	}

	// A recording's segment upserted by id: the old words leave the index.
	if err := db.SaveConversation(ctx, lifecycleConversation("rec", user, appliance.StatusInProgress, now)); err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"a goose again", "a swan after all"} {
		if err := db.AppendSegments(ctx, user, "rec", []appliance.TranscriptSegment{{ID: "r1", Text: text, Speaker: "SPEAKER_00"}}, nil, now); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.SetConversationStatus(ctx, user, "rec", []appliance.ConversationStatus{appliance.StatusInProgress}, appliance.StatusCompleted); err != nil {
		t.Fatal(err)
	}
	if err := db.SetConversationTitle(ctx, user, "rec", "Walk"); err != nil {
		t.Fatal(err)
	}
	if got := found("swan", appliance.SearchQuery{}); len(got) != 1 || got["rec"].Snippet == "" {
		t.Errorf("swan: %v", got)
	}
	if _, ok := found("goose", appliance.SearchQuery{})["rec"]; ok {
		t.Error("an upserted segment's old words are still found")
	}

	if err := db.DeleteConversation(ctx, user, "fed"); err != nil {
		t.Fatal(err)
	}
	if got := found("goose", appliance.SearchQuery{}); len(got) != 0 {
		t.Errorf("a deleted conversation's words are found: %v", got)
	}
	if got, err := db.Search(ctx, "someone-else", appliance.SearchQuery{Kind: appliance.KindConversation, Text: "swan", Limit: 10}); err != nil || len(got) != 0 {
		t.Errorf("another user found %v (%v)", got, err)
	}
}

// TestMigration0028_BackfillsSegments: segments stored before migration
// 0028 are searchable after it (the migration indexes them), and
// segments written later follow.
func TestMigration0028_BackfillsSegments(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	db, err := store.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	user := MustCreateUser(t, db, "Ada")
	old := lifecycleConversation("old", user, appliance.StatusCompleted, time.Now().UTC())
	old.Structured.Title = "Before"
	old.TranscriptSegments = []appliance.TranscriptSegment{{ID: "o1", Text: "The dentist moved to Lagos", Speaker: "SPEAKER_00", Start: 7}}
	if err := db.SaveConversation(ctx, old); err != nil {
		t.Fatal(err)
	}
	db.Close()
	// Back to the schema before 0028, its segments kept.
	db = migrateAgain(t, dir, 28)
	hits, err := db.Search(ctx, user, appliance.SearchQuery{Kind: appliance.KindConversation, Text: "Lagos", Limit: 5})
	if err != nil || len(hits) != 1 || hits[0].ItemID != "old" || hits[0].Start != 7 || !strings.Contains(hits[0].Snippet, "<mark>Lagos</mark>") {
		t.Fatalf("after the migration: %+v, %v", hits, err)
	}
}

// TestSearch_UntitledSaidWordsFound: a conversation saved without a
// title (no structure yet) is found by what was said in it, and, once
// it gets a title, by its title as well; the ones stored before
// migration 0029 are found after it.
func TestSearch_UntitledSaidWordsFound(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	db, err := store.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	user := MustCreateUser(t, db, "Ada")
	found := func(db *store.DB, word string) []appliance.SearchHit {
		t.Helper()
		hits, err := db.Search(ctx, user, appliance.SearchQuery{Kind: appliance.KindConversation, Text: word, Limit: 5})
		if err != nil {
			t.Fatal(err)
		}
		return hits
	}
	for id, word := range map[string]string{"plain": "goose", "old": "Easter"} {
		c := lifecycleConversation(id, user, appliance.StatusCompleted, time.Now().UTC())
		c.Structured.Title, c.Structured.Overview = "", ""
		c.TranscriptSegments = []appliance.TranscriptSegment{{ID: id + "1", Text: "We talked about " + word, Speaker: "SPEAKER_00", Start: 3}}
		if err := db.SaveConversation(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	if hits := found(db, "goose"); len(hits) != 1 || hits[0].ItemID != "plain" || hits[0].Start != 3 {
		t.Fatalf("untitled: %+v", hits)
	}
	if err := db.SetConversationTitle(ctx, user, "plain", "Teeth"); err != nil {
		t.Fatal(err)
	}
	if hits := found(db, "teeth"); len(hits) != 1 || hits[0].ItemID != "plain" {
		t.Fatalf("titled later: %+v", hits)
	}
	db.Close()
	// "old" as it was before 0029: no search document.
	db = migrateAgain(t, dir, 29, `DELETE FROM search_docs WHERE item_id = 'old'`)
	if hits := found(db, "easter"); len(hits) != 1 || hits[0].ItemID != "old" {
		t.Fatalf("after the migration: %+v", hits)
	}
}

// TestSearch_SaidWindowRanksRareWords: a word said in more segments than
// the window holds is ranked by the kept word counts (saidrank.go), where
// the rarer word of the query weighs more, and the segment's time and
// snippet are still those of its match.
func TestSearch_SaidWindowRanksRareWords(t *testing.T) {
	t.Parallel()
	db := MustOpenDB(t)
	ctx := context.Background()
	user := MustCreateUser(t, db, "Ada")
	now := time.Now().UTC()
	for i := range 120 { // 600 segments say "okay", more than the window
		c := lifecycleConversation(fmt.Sprintf("c%03d", i), user, appliance.StatusCompleted, now.Add(time.Duration(i)*time.Minute))
		c.Structured.Title, c.TranscriptSegments = "Chat", nil
		for j := range 5 {
			text := "Okay, see you later then."
			if i == 5 && j == 3 {
				text = "Okay, the zebra escaped again." // old, but the only zebra
			}
			c.TranscriptSegments = append(c.TranscriptSegments, appliance.TranscriptSegment{ID: fmt.Sprintf("s%d", j),
				Text: text, Speaker: "SPEAKER_00", Start: float64(10 * j), End: float64(10*j + 5)})
		}
		if err := db.SaveConversation(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	// The newest segments say "okay", the zebra is older than their
	// window: a word said less often than the window holds is ranked in
	// all its segments.
	hits, err := db.Search(ctx, user, appliance.SearchQuery{Kind: appliance.KindConversation, Text: "okay zebra", Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 || hits[0].ItemID != "c005" || hits[0].Start != 30 || !strings.Contains(hits[0].Snippet, "<mark>zebra</mark>") {
		t.Fatalf("okay zebra: %+v", hits)
	}
	// Within the window, a segment saying both words outranks one saying
	// the common word alone.
	c := lifecycleConversation("both", user, appliance.StatusCompleted, now.Add(time.Hour))
	c.Structured.Title = "Chat"
	c.TranscriptSegments = []appliance.TranscriptSegment{{ID: "s0", Text: "Okay, the giraffe is fine.", Speaker: "SPEAKER_00", Start: 4, End: 6}}
	if err := db.SaveConversation(ctx, c); err != nil {
		t.Fatal(err)
	}
	hits, err = db.Search(ctx, user, appliance.SearchQuery{Kind: appliance.KindConversation, Text: "okay giraffe", Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 || hits[0].ItemID != "both" {
		t.Fatalf("okay giraffe: %+v", hits)
	}
}

// TestSearch_CommonWordsWindow: words in more titles and segments than
// their windows hold are ranked by their kept counts (saidrank.go): a rare
// word in an old title still ranks its conversation first, the filters
// hold there, and a phrase is found whether it is said a few times or
// more than phraseMatches reads forwards.
func TestSearch_CommonWordsWindow(t *testing.T) {
	t.Parallel()
	db := MustOpenDB(t)
	ctx := context.Background()
	user := MustCreateUser(t, db, "Ada")
	now := time.Now().UTC()
	for i := range 300 { // 300 titles say "chat", more than the window
		c := lifecycleConversation(fmt.Sprintf("c%03d", i), user, appliance.StatusCompleted, now.Add(time.Duration(i)*time.Minute))
		c.Structured.Title, c.Structured.Category = "Weekly chat", appliance.Category("other")
		text := "The red car was late again."
		switch {
		case i == 3:
			c.Structured.Title, c.Structured.Category = "Chat about the aquarium", appliance.Category("work")
		case i == 4:
			text = "Late again, the car was red." // the same words, not the phrase
		case i == 7:
			text = "Late red car, they said." // the phrase "late red car", once
		}
		c.TranscriptSegments = []appliance.TranscriptSegment{{ID: "s0", Text: text, Speaker: "SPEAKER_00", Start: 3, End: 5}}
		if err := db.SaveConversation(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		query string
		q     appliance.SearchQuery
		first string
	}{
		{"chat aquarium", appliance.SearchQuery{}, "c003"},
		{"chat", appliance.SearchQuery{Category: "work"}, "c003"},
		{"late red car", appliance.SearchQuery{}, "c007"},     // said once: read forwards
		{"red car was late", appliance.SearchQuery{}, "c299"}, // said 297 times: the newest
	} {
		tc.q.Kind, tc.q.Text, tc.q.Limit = appliance.KindConversation, tc.query, 5
		hits, err := db.Search(ctx, user, tc.q)
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) == 0 || hits[0].ItemID != tc.first {
			t.Errorf("%q %+v: first %v, want %s", tc.query, tc.q, hits, tc.first)
		}
		if tc.q.Category == "work" && len(hits) != 1 {
			t.Errorf("%q in work: %d hits, want 1", tc.query, len(hits))
		}
	}
}

// TestDocsSaying: a word's count is sampled among the newest sixteenth of
// the segments when it is common there, and counted in full when not.
func TestDocsSaying(t *testing.T) {
	t.Parallel()
	db := MustOpenDB(t)
	ctx := context.Background()
	user := MustCreateUser(t, db, "Ada")
	now := time.Now().UTC()
	for i := range 400 { // 4,800 segments say "okay", 400 of them "zebra"
		c := lifecycleConversation(fmt.Sprintf("c%03d", i), user, appliance.StatusCompleted, now.Add(time.Duration(i)*time.Minute))
		for j := range 12 {
			text := "Okay, see you later."
			if j == 5 {
				text = "Okay, the zebra again."
			}
			c.TranscriptSegments = append(c.TranscriptSegments, appliance.TranscriptSegment{ID: fmt.Sprintf("s%d", j),
				Text: text, Speaker: "SPEAKER_00", Start: float64(j), End: float64(j + 1)})
		}
		if err := db.SaveConversation(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	for {
		n, err := db.IndexText(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			break
		}
	}
	for _, tc := range []struct {
		term     string
		min, max int64
	}{
		{`"okay"`, 4800 * 95 / 100, 4800 * 105 / 100}, // sampled: 300 of the newest 300
		{`"zebra"`, 400, 400},                         // 25 of the newest: counted in full
		{`"giraffe"`, 0, 0},
	} {
		n, err := db.DocsSaying(ctx, "segment_fts", tc.term)
		if err != nil {
			t.Fatal(err)
		}
		if n < tc.min || n > tc.max {
			t.Errorf("%s: %d segments, want %d-%d", tc.term, n, tc.min, tc.max)
		}
	}
}

// TestMigration0036_SegmentsWrittenOnce: segments stored before the
// migration keep their doc_ids (so segment_fts is not rebuilt) and are
// found as before, indexed or still waiting; a deleted conversation's stay
// out of the index until it is saved again.
func TestMigration0036_SegmentsWrittenOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	db, err := store.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	user := MustCreateUser(t, db, "Ada")
	save := func(db *store.DB, id string, texts ...string) {
		t.Helper()
		c := lifecycleConversation(id, user, appliance.StatusCompleted, time.Now().UTC())
		c.TranscriptSegments = nil
		for i, text := range texts {
			c.TranscriptSegments = append(c.TranscriptSegments,
				appliance.TranscriptSegment{ID: fmt.Sprintf("%s%d", id, i), Text: text, Speaker: "SPEAKER_00", Start: float64(i)})
		}
		if err := db.SaveConversation(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	save(db, "kept", "the heron stood still", "a kestrel overhead")
	save(db, "gone", "a curlew called")
	if err := db.DeleteConversation(ctx, user, "gone"); err != nil {
		t.Fatal(err)
	}
	for n := 1; n > 0; { // indexed
		if n, err = db.IndexText(ctx); err != nil {
			t.Fatal(err)
		}
	}
	save(db, "waiting", "an osprey dived") // past the mark
	docIDs := func(db *store.DB) string {
		t.Helper()
		s, err := db.QueryString(ctx, `SELECT group_concat(doc_id || ':' || text, ',') FROM (SELECT doc_id, text FROM segment_docs ORDER BY doc_id)`)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	before := docIDs(db)
	db.Close()

	db = migrateAgain(t, dir, 36)
	if after := docIDs(db); after != before {
		t.Errorf("segments after the migration %s, before %s", after, before)
	}
	check := func(when string, want map[string]string) {
		t.Helper()
		for word, id := range want {
			hits, err := db.Search(ctx, user, appliance.SearchQuery{Kind: appliance.KindConversation, Text: word, Limit: 5})
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if len(hits) > 0 {
				got = hits[0].ItemID
			}
			if got != id || len(hits) > 1 {
				t.Errorf("%s: %q found %+v, want %q", when, word, hits, id)
			}
		}
		if err := db.WriterExec(ctx, `INSERT INTO segment_fts (segment_fts, rank) VALUES ('integrity-check', 1)`); err != nil {
			t.Fatalf("%s: FTS5 integrity check: %v", when, err)
		}
	}
	check("migrated", map[string]string{"heron": "kept", "kestrel": "kept", "osprey": "waiting", "curlew": ""})
	save(db, "gone", "a curlew called")
	check("saved again", map[string]string{"curlew": "gone", "heron": "kept"})
}

package store_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/store"
)

// pendingTexts is the indexer's view: the texts waiting for a vector.
func pendingTexts(t *testing.T, db *store.DB) []string {
	t.Helper()
	docs, err := db.PendingDocs(context.Background(), testVocab.Model(), 1000)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range docs {
		out = append(out, d.Text)
	}
	slices.Sort(out)
	return out
}

// checkProgress compares IndexProgress, which reads the work list and the
// kept count, with a count of the tables themselves.
func checkProgress(t *testing.T, db *store.DB) (done, total int) {
	t.Helper()
	ctx := context.Background()
	done, total, err := db.IndexProgress(ctx, testVocab.Model())
	if err != nil {
		t.Fatal(err)
	}
	docs, _ := db.QueryString(ctx, `SELECT COUNT(*) FROM search_docs`)
	vecs, _ := db.QueryString(ctx, `SELECT COUNT(*) FROM search_vectors`)
	if fmt.Sprint(total) != docs || fmt.Sprint(done) != vecs {
		t.Fatalf("IndexProgress %d/%d, tables hold %s vectors for %s docs", done, total, vecs, docs)
	}
	return done, total
}

// actionItemDocs maps action items to their search doc ids.
func actionItemDocs(t *testing.T, db *store.DB) map[string]string {
	t.Helper()
	rows, err := db.Raw(context.Background(), `SELECT item_id || '=' || doc_id FROM search_docs WHERE kind = 'action_item'`)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, r := range rows {
		k, v, _ := strings.Cut(r, "=")
		out[k] = v
	}
	return out
}

// TestSaveConversation_RewritesOnlyWhatChanged: a save compares segments
// and action items with the stored rows, so an unchanged item keeps its
// search doc and vector, and only edited text is embedded again.
func TestSaveConversation_RewritesOnlyWhatChanged(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpenDB(t)
	mustUser(t, db, "u1")
	if _, err := db.UseEmbeddingModel(ctx, testVocab.Model(), testVocab.Dims()); err != nil {
		t.Fatal(err)
	}
	c := sampleConversation("c1", "u1")
	c.Structured.ActionItems = append(c.Structured.ActionItems, appliance.ActionItem{ID: "c1-a2", Description: "Water the garden"})
	if err := db.SaveConversation(ctx, c); err != nil {
		t.Fatal(err)
	}
	index(t, db, testVocab)
	before := actionItemDocs(t, db)
	if len(before) != 2 {
		t.Fatalf("action item docs %v", before)
	}

	// The same conversation saved again: nothing to embed, same docs.
	again, err := db.Conversation(ctx, "u1", "c1")
	if err != nil {
		t.Fatal(err)
	}
	if err := db.SaveConversation(ctx, again); err != nil {
		t.Fatal(err)
	}
	if got := pendingTexts(t, db); len(got) != 0 {
		t.Fatalf("an unchanged save queued %q", got)
	}
	if after := actionItemDocs(t, db); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Fatalf("an unchanged save replaced the docs: %v, was %v", after, before)
	}

	// One item edited, one dropped, one added; one segment edited and the
	// last one dropped.
	again.Structured.ActionItems[0].Description = "Send the budget report"
	again.Structured.ActionItems = append(again.Structured.ActionItems[:1], appliance.ActionItem{ID: "c1-a3", Description: "Tune the piano"})
	again.TranscriptSegments[0].Text = "Let's review the money."
	again.TranscriptSegments = again.TranscriptSegments[:1]
	if err := db.SaveConversation(ctx, again); err != nil {
		t.Fatal(err)
	}
	if got := pendingTexts(t, db); !slices.Equal(got, []string{"Send the budget report", "Tune the piano"}) {
		t.Fatalf("pending after edits %q", got)
	}
	after := actionItemDocs(t, db)
	if _, ok := after["c1-a2"]; ok || after["c1-a1"] != before["c1-a1"] || len(after) != 2 {
		t.Fatalf("docs after edits %v (before %v): want c1-a1 kept, c1-a2 gone, c1-a3 new", after, before)
	}
	got, err := db.Conversation(ctx, "u1", "c1")
	if err != nil {
		t.Fatal(err)
	}
	if len(got.TranscriptSegments) != 1 || got.TranscriptSegments[0].Text != "Let's review the money." {
		t.Fatalf("segments after edits: %+v", got.TranscriptSegments)
	}
	var descs []string
	for _, a := range got.Structured.ActionItems {
		descs = append(descs, a.Description)
	}
	slices.Sort(descs)
	if !slices.Equal(descs, []string{"Send the budget report", "Tune the piano"}) {
		t.Fatalf("action items after edits: %q", descs)
	}

	// A deleted action item the conversation lists again is live again, as
	// it was when every save deleted and re-inserted the items.
	if err := db.DeleteActionItem(ctx, "u1", "c1-a3"); err != nil {
		t.Fatal(err)
	}
	if err := db.SaveConversation(ctx, again); err != nil {
		t.Fatal(err)
	}
	if a, err := db.ActionItem(ctx, "u1", "c1-a3"); err != nil || a.Description != "Tune the piano" {
		t.Fatalf("re-listed action item: %+v, %v", a, err)
	}
	checkProgress(t, db)
}

// TestSaveConversation_AfterAMergedTail: a live recording's merged tail
// is deleted where it stood, which leaves a gap in the stored positions;
// saving the conversation whole afterwards stores each segment once.
func TestSaveConversation_AfterAMergedTail(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpenDB(t)
	mustUser(t, db, "u1")
	now := time.Now().UTC()
	c := lifecycleConversation("live", "u1", appliance.StatusInProgress, now)
	c.TranscriptSegments = nil
	if err := db.StartRecording(ctx, c, time.Minute); err != nil {
		t.Fatal(err)
	}
	seg := func(id, text string) appliance.TranscriptSegment {
		return appliance.TranscriptSegment{ID: id, Text: text, Speaker: "SPEAKER_00", Translations: []appliance.Translation{}}
	}
	if err := db.AppendSegments(ctx, "u1", "live", []appliance.TranscriptSegment{seg("s0", "one"), seg("s1", "two"), seg("s2", "thr")}, nil, now); err != nil {
		t.Fatal(err)
	}
	// s2 is merged into s2b: positions 0, 1, 3.
	if err := db.AppendSegments(ctx, "u1", "live", []appliance.TranscriptSegment{seg("s2b", "three")}, []string{"s2"}, now); err != nil {
		t.Fatal(err)
	}
	got, err := db.Conversation(ctx, "u1", "live")
	if err != nil {
		t.Fatal(err)
	}
	got.Status = appliance.StatusCompleted
	if err := db.SaveConversation(ctx, got); err != nil {
		t.Fatal(err)
	}
	saved, err := db.Conversation(ctx, "u1", "live")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, s := range saved.TranscriptSegments {
		ids = append(ids, s.ID)
	}
	if !slices.Equal(ids, []string{"s0", "s1", "s2b"}) {
		t.Fatalf("segments after the save: %q, want s0 s1 s2b", ids)
	}
}

// TestSearchTriggers_FireOnChangeOnly: rewriting an item with the same
// indexed values leaves its search doc and vector alone; a changed value
// queues it again, and a deleted item leaves the list and the count.
func TestSearchTriggers_FireOnChangeOnly(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpenDB(t)
	mustUser(t, db, "u1")
	if _, err := db.UseEmbeddingModel(ctx, testVocab.Model(), testVocab.Dims()); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	if err := db.CreateMemories(ctx, []*appliance.Memory{
		newMemory("a", "u1", "budget money", now), newMemory("b", "u1", "dentist teeth", now),
	}); err != nil {
		t.Fatal(err)
	}
	if err := db.SaveConversation(ctx, sampleConversation("c1", "u1")); err != nil {
		t.Fatal(err)
	}
	index(t, db, testVocab)
	if done, total := checkProgress(t, db); done != 4 || total != 4 {
		t.Fatalf("progress %d/%d, want 4/4", done, total)
	}
	a, err := db.Memory(ctx, "u1", "a")
	if err != nil {
		t.Fatal(err)
	}
	a.Category = "interesting"
	if err := db.UpdateMemory(ctx, a); err != nil {
		t.Fatal(err)
	}
	c, err := db.Conversation(ctx, "u1", "c1")
	if err != nil {
		t.Fatal(err)
	}
	c.Starred = true
	if err := db.SaveConversation(ctx, c); err != nil {
		t.Fatal(err)
	}
	if got := pendingTexts(t, db); len(got) != 0 {
		t.Fatalf("edits that kept the indexed values queued %q", got)
	}
	a.Content = "piano music"
	if err := db.UpdateMemory(ctx, a); err != nil {
		t.Fatal(err)
	}
	c.Structured.Title = "Garden"
	if err := db.SaveConversation(ctx, c); err != nil {
		t.Fatal(err)
	}
	if got := pendingTexts(t, db); !slices.Equal(got, []string{"Garden (business)\nWe reviewed the budget.", "piano music"}) {
		t.Fatalf("pending after edits: %q", got)
	}
	if err := db.DeleteMemory(ctx, "u1", "b"); err != nil {
		t.Fatal(err)
	}
	if done, total := checkProgress(t, db); done != 1 || total != 3 {
		t.Fatalf("progress %d/%d, want 1/3", done, total)
	}
	// The list is the active model's: asking for another's is an error.
	if _, err := db.PendingDocs(ctx, "another-model", 10); err == nil {
		t.Fatal("pending docs of an inactive model: no error")
	}
}

// TestWorkList_EditsWhilePending: a doc already on the work list that
// changes again stays listed once, whatever statement fired the trigger
// (an upsert's DO UPDATE fires it under ABORT).
func TestWorkList_EditsWhilePending(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpenDB(t)
	mustUser(t, db, "u1")
	if _, err := db.UseEmbeddingModel(ctx, testVocab.Model(), testVocab.Dims()); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	if err := db.CreateMemories(ctx, []*appliance.Memory{newMemory("a", "u1", "budget money", now)}); err != nil {
		t.Fatal(err)
	}
	c := sampleConversation("c1", "u1")
	if err := db.SaveConversation(ctx, c); err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"garden tomato", "piano music"} {
		a, err := db.Memory(ctx, "u1", "a")
		if err != nil {
			t.Fatal(err)
		}
		a.Content = text
		if err := db.UpdateMemory(ctx, a); err != nil {
			t.Fatalf("editing a pending memory: %v", err)
		}
		c.Structured.Overview = text
		c.Structured.ActionItems[0].Description = text
		if err := db.SaveConversation(ctx, c); err != nil {
			t.Fatalf("re-saving a pending conversation: %v", err)
		}
	}
	want := []string{"Budget Review (business)\npiano music", "piano music", "piano music"}
	if got := pendingTexts(t, db); !slices.Equal(got, want) {
		t.Fatalf("pending %q, want %q", got, want)
	}
	if done, total := checkProgress(t, db); done != 0 || total != 3 {
		t.Fatalf("progress %d/%d, want 0/3", done, total)
	}
}

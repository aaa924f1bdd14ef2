package store_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// TestSaveProcessedFiled: a processed conversation in no folder is filed
// into the user's system folder for the category given, in the save's own
// transaction; one the owner filed stays where it is, and a category
// without a system folder (or none asked) leaves it in none.
func TestSaveProcessedFiled(t *testing.T) {
	t.Parallel()
	db := MustOpenDB(t)
	ctx := context.Background()
	user := MustCreateUser(t, db, "Ada")
	garden := &appliance.Folder{ID: appliance.NewID(), UserID: user, Name: "Garden", CreatedAt: time.Now()}
	if err := db.CreateFolder(ctx, garden); err != nil {
		t.Fatal(err)
	}
	work, err := db.SystemFolder(ctx, user, "work")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, category string
		folder         *string
		want           string
	}{
		{name: "in no folder", category: "work", want: work.ID},
		{name: "filed by the owner", category: "work", folder: &garden.ID, want: garden.ID},
		{name: "no such system folder", category: "garden"},
		{name: "none asked", category: ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := sampleConversation(appliance.NewID(), user)
			c.FolderID = tc.folder
			if err := db.SaveProcessedFiled(ctx, c, nil, tc.category); err != nil {
				t.Fatal(err)
			}
			got, err := db.Conversation(ctx, user, c.ID)
			if err != nil {
				t.Fatal(err)
			}
			for what, f := range map[string]*string{"stored": got.FolderID, "returned": c.FolderID} {
				if s := deref(f); s != tc.want {
					t.Errorf("%s folder %q, want %q", what, s, tc.want)
				}
			}
		})
	}
}

// TestSaveProcessed_ManySegments: segments are inserted many rows per
// statement (16 at most); a long transcript comes back whole and in order,
// and a save that changes one segment in the middle and adds more keeps
// each where it belongs.
func TestSaveProcessed_ManySegments(t *testing.T) {
	t.Parallel()
	db := MustOpenDB(t)
	ctx := context.Background()
	user := MustCreateUser(t, db, "Ada")
	c := sampleConversation(appliance.NewID(), user)
	segs := func(from, to int) []appliance.TranscriptSegment {
		var out []appliance.TranscriptSegment
		for i := from; i < to; i++ {
			out = append(out, appliance.TranscriptSegment{ID: fmt.Sprintf("s%02d", i), Text: fmt.Sprintf("Sentence number %d.", i),
				Speaker: "SPEAKER_00", Start: float64(i), End: float64(i) + 1, Translations: []appliance.Translation{}})
		}
		return out
	}
	check := func(want []appliance.TranscriptSegment) {
		t.Helper()
		got, err := db.Conversation(ctx, user, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.TranscriptSegments) != len(want) {
			t.Fatalf("%d segments back, want %d", len(got.TranscriptSegments), len(want))
		}
		for i, s := range got.TranscriptSegments {
			if s.ID != want[i].ID || s.Text != want[i].Text || s.Start != want[i].Start {
				t.Fatalf("segment %d: %s %q at %v, want %s %q at %v", i, s.ID, s.Text, s.Start, want[i].ID, want[i].Text, want[i].Start)
			}
		}
	}
	c.TranscriptSegments = segs(0, 37) // two full statements and a short one
	if err := db.SaveProcessed(ctx, c, nil); err != nil {
		t.Fatal(err)
	}
	check(c.TranscriptSegments)

	c.TranscriptSegments = append(segs(0, 40), segs(40, 41)...)
	c.TranscriptSegments[20].Text = "Changed in the middle."
	if err := db.SaveProcessed(ctx, c, nil); err != nil {
		t.Fatal(err)
	}
	check(c.TranscriptSegments)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

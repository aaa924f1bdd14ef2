package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// TestPeopleRenameMergeDelete: merge and delete leave no reference to the
// person gone (segments, assignments, voices), rename carries to the
// assignments, and nothing crosses to another user.
func TestPeopleRenameMergeDelete(t *testing.T) {
	t.Parallel()
	db := MustOpenDB(t)
	ctx := context.Background()
	mustUser(t, db, "u1")
	mustUser(t, db, "u2")
	now := time.Now().UTC()
	for _, p := range []*appliance.Person{{ID: "p1", UserID: "u1", Name: "Gracie"}, {ID: "p3", UserID: "u1", Name: "Grace H."},
		{ID: "p9", UserID: "u2", Name: "Alan"}} {
		p.CreatedAt = now
		if err := db.CreatePerson(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	// c1 names p1 in segment s2 (sampleConversation's guest).
	if err := db.SaveConversation(ctx, sampleConversation("c1", "u1")); err != nil {
		t.Fatal(err)
	}
	for _, v := range []*appliance.PersonVoice{
		{PersonID: "p1", UserID: "u1", Extractor: "x", Embedding: []float32{1, 0}, Seconds: 3, UpdatedAt: now},
		{PersonID: "p3", UserID: "u1", Extractor: "x", Embedding: []float32{0, 1}, Seconds: 1, UpdatedAt: now},
	} {
		if err := db.PutPersonVoice(ctx, v); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.AssignSpeaker(ctx, appliance.SpeakerAssignment{UserID: "u1", ConversationID: "c1", SpeakerID: 1,
		PersonID: "p1", SegmentIDs: []string{"s2"}, CreatedAt: now}); err != nil {
		t.Fatal(err)
	}
	counts, err := db.PersonSegments(ctx, "u1")
	if err != nil || counts["p1"] != 1 || counts["p3"] != 0 || len(counts) != 2 {
		t.Fatalf("segment counts %v %v", counts, err)
	}

	// Another user's person cannot be renamed, merged or deleted.
	if _, err := db.RenamePerson(ctx, "u2", "p1", "Mallory"); appliance.ErrorCode(err) != appliance.ENOTFOUND {
		t.Fatalf("rename across users: %v", err)
	}
	if err := db.MergePeople(ctx, "u1", "p9", "p1"); appliance.ErrorCode(err) != appliance.ENOTFOUND {
		t.Fatalf("merge across users: %v", err)
	}
	if err := db.DeletePerson(ctx, "u2", "p3"); appliance.ErrorCode(err) != appliance.ENOTFOUND {
		t.Fatalf("delete across users: %v", err)
	}
	if err := db.MergePeople(ctx, "u1", "p1", "p1"); appliance.ErrorCode(err) != appliance.EINVALID {
		t.Fatalf("merge into self: %v", err)
	}

	if p, err := db.RenamePerson(ctx, "u1", "p3", "  Grace Hopper "); err != nil || p.Name != "Grace Hopper" {
		t.Fatalf("rename: %v %v", p, err)
	}
	if err := db.MergePeople(ctx, "u1", "p1", "p3"); err != nil {
		t.Fatal(err)
	}
	c, err := db.Conversation(ctx, "u1", "c1")
	if err != nil || c.TranscriptSegments[1].PersonID == nil || *c.TranscriptSegments[1].PersonID != "p3" {
		t.Fatalf("the merged person's segment: %+v %v", c.TranscriptSegments, err)
	}
	voices, err := db.PersonVoices(ctx, "u1")
	if err != nil || len(voices) != 1 || voices[0].PersonID != "p3" || voices[0].Seconds != 4 ||
		voices[0].Embedding[0] != 0.75 || voices[0].Embedding[1] != 0.25 {
		t.Fatalf("voices after the merge (weighted by seconds): %+v %v", voices, err)
	}
	if as, err := db.SpeakerAssignments(ctx, "u1", "c1"); err != nil || len(as) != 1 || as[0].PersonID != "p3" || as[0].PersonName != "Grace Hopper" {
		t.Fatalf("assignments after the merge: %+v %v", as, err)
	}
	if names, _ := db.PersonNames(ctx, "u1", []string{"p1", "p3"}); len(names) != 1 || names["p3"] != "Grace Hopper" {
		t.Fatalf("people after the merge: %v", names)
	}

	if err := db.DeletePerson(ctx, "u1", "p3"); err != nil {
		t.Fatal(err)
	}
	c, _ = db.Conversation(ctx, "u1", "c1")
	if c.TranscriptSegments[1].PersonID != nil || c.TranscriptSegments[1].Text != "Sure." {
		t.Fatalf("a deleted person's segment: %+v", c.TranscriptSegments[1])
	}
	if as, _ := db.SpeakerAssignments(ctx, "u1", "c1"); len(as) != 0 {
		t.Fatalf("assignments after delete: %+v", as)
	}
	if voices, _ := db.PersonVoices(ctx, "u1"); len(voices) != 0 {
		t.Fatalf("voices after delete: %+v", voices)
	}
	if ps, _ := db.Persons(ctx, "u2"); len(ps) != 1 || ps[0].Name != "Alan" {
		t.Fatalf("the other user's people: %v", ps)
	}
}

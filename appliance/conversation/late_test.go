package conversation_test

import (
	"context"
	"strings"
	"testing"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/conversation"
)

// TestLateSegmentsRestructureTheRecording: segments transcribed late that
// reach a recording still in progress change nothing but its transcript;
// those that reach a processed one say it is stale, and Restructure then
// processes it again on the whole transcript (its action items include
// what the late segments said) without a second set of memories. A
// failed Restructure leaves the conversation as it was.
func TestLateSegmentsRestructureTheRecording(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	conv, err := e.svc.Start(ctx, conversation.Recording{UserID: e.user})
	if err != nil {
		t.Fatal(err)
	}
	said := []appliance.TranscriptSegment{meeting[0], meeting[1], meeting[3]}
	if err := e.svc.Append(ctx, e.user, conv.ID, said); err != nil {
		t.Fatal(err)
	}
	if stale, err := e.svc.Insert(ctx, e.user, conv.ID, meeting[2:3]); err != nil || stale {
		t.Fatalf("late segments in a recording in progress: stale %v, %v", stale, err)
	}
	if err := e.svc.Restructure(ctx, e.user, conv.ID); err != nil {
		t.Fatal(err)
	}
	if got, _ := e.db.Conversation(ctx, e.user, conv.ID); got.Status != appliance.StatusInProgress {
		t.Fatalf("a recording in progress restructured: %s", got.Status)
	}

	// The same recording, its budget promise heard only after processing.
	conv, err = e.svc.Start(ctx, conversation.Recording{UserID: e.user})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.svc.Append(ctx, e.user, conv.ID, said); err != nil {
		t.Fatal(err)
	}
	first, err := e.svc.Finish(ctx, e.user, conv.ID, conversation.FinishRequested)
	if err != nil {
		t.Fatal(err)
	}
	if promised(first) {
		t.Fatalf("the first processing heard the late segment: %+v", first.Structured.ActionItems)
	}
	memories := func() int {
		ms, err := e.db.Memories(ctx, e.user, appliance.MemoryFilter{Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, m := range ms {
			if m.ConversationID != nil && *m.ConversationID == conv.ID {
				n++
			}
		}
		return n
	}
	before := memories()
	stale, err := e.svc.Insert(ctx, e.user, conv.ID, meeting[2:3])
	if err != nil || !stale {
		t.Fatalf("late segments in a processed recording: stale %v, %v", stale, err)
	}

	e.proc.fails.Store(1) // the extractor is down: nothing changes
	if err := e.svc.Restructure(ctx, e.user, conv.ID); err == nil {
		t.Fatal("Restructure with the extractor down succeeded")
	}
	got, _ := e.db.Conversation(ctx, e.user, conv.ID)
	if got.Status != appliance.StatusCompleted || got.Structured.Title != first.Structured.Title {
		t.Fatalf("after a failed Restructure: %s %q", got.Status, got.Structured.Title)
	}

	sub := e.broker.Subscribe(e.user)
	defer sub.Close()
	if err := e.svc.Restructure(ctx, e.user, conv.ID); err != nil {
		t.Fatal(err)
	}
	if ev := types(t, sub, 2); ev[0] != appliance.EventProcessingStarted || ev[1] != appliance.EventConversationProcessed {
		t.Fatalf("events %v", ev)
	}
	got, _ = e.db.Conversation(ctx, e.user, conv.ID)
	if got.Status != appliance.StatusCompleted || !promised(got) || len(got.TranscriptSegments) != 4 {
		t.Fatalf("restructured: %s, %d segments, action items %+v", got.Status, len(got.TranscriptSegments), got.Structured.ActionItems)
	}
	if n := memories(); n != before {
		t.Fatalf("%d memories of the recording after Restructure, %d before", n, before)
	}
}

// promised: an action item says what the late segment promised.
func promised(c *appliance.Conversation) bool {
	for _, a := range c.Structured.ActionItems {
		if strings.Contains(strings.ToLower(a.Description), "budget") && strings.Contains(strings.ToLower(a.Description), "send") {
			return true
		}
	}
	return false
}

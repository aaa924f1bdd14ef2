package conversation_test

import (
	"context"
	"testing"

	"github.com/hearth-appliance/hearth/appliance"
)

// TestProcessingSkipsTheUsersOpenItems: a conversation that repeats a task
// the user has open from another conversation adds no second item, and
// processing a conversation again keeps its own items (they are not
// "already open" to it).
func TestProcessingSkipsTheUsersOpenItems(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	first, err := e.svc.Create(ctx, e.draft("first"))
	if err != nil {
		t.Fatal(err)
	}
	own := descriptions(first.Structured.ActionItems)
	if len(own) == 0 {
		t.Fatal("the meeting gave no action items")
	}
	second, err := e.svc.Create(ctx, e.draft("second"))
	if err != nil {
		t.Fatal(err)
	}
	if got := descriptions(second.Structured.ActionItems); len(got) != 0 {
		t.Errorf("the same meeting again gave %q, want nothing the user has open", got)
	}
	if err := e.svc.Restructure(ctx, e.user, first.ID); err != nil {
		t.Fatal(err)
	}
	again, err := e.db.Conversation(ctx, e.user, first.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got := descriptions(again.Structured.ActionItems); len(got) != len(own) {
		t.Errorf("restructured, the first meeting has %q, want its own %q", got, own)
	}
}

func descriptions(items []appliance.ActionItem) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.Description
	}
	return out
}

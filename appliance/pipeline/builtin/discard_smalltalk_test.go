package builtin

import (
	"context"
	"testing"
	"time"
)

// TestBuiltinSmallTalk: a short exchange that yields nothing to do, plan or
// remember is discarded; one that yields a task or a plan is kept.
func TestBuiltinSmallTalk(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 3, 10, 8, 0, 0, 0, time.UTC)
	tests := []struct {
		name  string
		turns []turn
		want  bool
	}{
		{"pleasantries", []turn{{"1", "Tea?"}, {"U", "Yes please. Busy day?"}, {"1", "Not too bad, the train was late."}}, true},
		{"bedtime", []turn{{"1", "one more song please"}, {"U", "no it's late sleep now"}, {"1", "okay night night"}}, true},
		{"a request", []turn{{"1", "Can you grab the post?"}, {"U", "Sure, will do."}}, false},
		{"a plan", []turn{{"1", "Lunch at one?"}, {"U", "Sure, see you there."}}, false},
		{"a fact about me", []turn{{"1", "Tea?"}, {"U", "No thanks, my doctor banned caffeine."}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := New().ShouldDiscard(context.Background(), dialogueInput(start, tt.turns...))
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("ShouldDiscard = %v, want %v", got, tt.want)
			}
		})
	}
}

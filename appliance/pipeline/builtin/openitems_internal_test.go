package builtin

import (
	"fmt"
	"testing"
)

// BenchmarkWithoutOpen: the comparison every create makes between its
// tasks and the user's 200 newest open items.
func BenchmarkWithoutOpen(b *testing.B) {
	open := make([]string, 200)
	for i := range open {
		open[i] = fmt.Sprintf("Send the quarterly report number %d to the finance team before the review", i)
	}
	items := func() []string { return open }
	mine := []task{{verb: "renew", topic: []string{"passport", "offic"}}, {verb: "call", topic: []string{"plumber", "leak"}}}
	b.ReportAllocs()
	for b.Loop() {
		tasks := append([]task(nil), mine...)
		if got := withoutOpen(tasks, items); len(got) != 2 {
			b.Fatalf("kept %d of 2 tasks", len(got))
		}
	}
}

// TestOpenTasksCacheReadsAsTaskOfDescription: a cached reading is the
// reading itself, and a description with no topic stays unusable.
func TestOpenTasksCacheReadsAsTaskOfDescription(t *testing.T) {
	for _, d := range []string{"Renew the passport", "Call", "Call the plumber about the leak", "Renew the passport"} {
		want, wantOK := taskOfDescription(d)
		got, ok := openTasks.of(d)
		if ok != wantOK || got.verb != want.verb || fmt.Sprint(got.topic) != fmt.Sprint(want.topic) {
			t.Errorf("openTasks.of(%q) = %+v, %v; want %+v, %v", d, got, ok, want, wantOK)
		}
	}
}

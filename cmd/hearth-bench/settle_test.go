package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestWaitIndexed waits until /healthz reports the whole index embedded,
// and measures how long that took.
func TestWaitIndexed(t *testing.T) {
	t.Parallel()
	var polls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		share := 0.5
		if polls.Add(1) > 3 {
			share = 1
		}
		fmt.Fprintf(w, `{"status":"ok","search_index":{"model":"m","embedded":%v,"reembedding":false}}`, share)
	}))
	defer srv.Close()
	waited, err := waitIndexed(context.Background(), srv.Client(), srv.URL, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if n := polls.Load(); n != 4 {
		t.Fatalf("%d polls, want 4 (three behind, then caught up)", n)
	}
	if waited < 3*indexPoll {
		t.Fatalf("waited %s for three polls %s apart", waited, indexPoll)
	}
}

func TestReport_RateIncludingIndexing(t *testing.T) {
	t.Parallel()
	res := result{name: "from-segments", requests: 1000, operations: 1000, errors: 0,
		elapsed: 4 * time.Second, indexWait: time.Second, latencies: []time.Duration{time.Millisecond}}
	if got := res.indexedRate(); got != 200 {
		t.Fatalf("indexedRate %v, want 1000 creates / 5 s = 200", got)
	}
	rep := &report{results: []result{res, {name: "get", requests: 10, operations: 10, elapsed: time.Second}}}
	md := rep.markdown()
	if !strings.Contains(md, "from-segments including indexing: 1000 done in 4000 ms, and the search index caught up 1000 ms later (/healthz): 200.0/s") {
		t.Fatalf("report lacks the rate including indexing:\n%s", md)
	}
	if strings.Contains(md, "get including indexing") {
		t.Fatalf("a read scenario got an indexing line:\n%s", md)
	}
}

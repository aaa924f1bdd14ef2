package logring_test

import (
	"bytes"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/hearth-appliance/hearth/appliance/logring"
)

func msgs(recs []logring.Record) []string {
	var out []string
	for _, r := range recs {
		out = append(out, r.Msg)
	}
	return out
}

// TestRingKeepsTheLast: the ring holds the newest n records, oldest first.
func TestRingKeepsTheLast(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		size, n int
		want    []string
	}{
		{"empty", 3, 0, nil},
		{"part full", 3, 2, []string{"m0", "m1"}},
		{"exactly full", 3, 3, []string{"m0", "m1", "m2"}},
		{"wrapped", 3, 5, []string{"m2", "m3", "m4"}},
		{"wrapped twice", 3, 7, []string{"m4", "m5", "m6"}},
		{"size zero keeps one", 0, 4, []string{"m3"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ring := logring.NewRing(tt.size)
			log := slog.New(logring.New(slog.DiscardHandler, ring, slog.LevelInfo))
			for i := range tt.n {
				log.Info(fmt.Sprintf("m%d", i))
			}
			if diff := cmp.Diff(tt.want, msgs(ring.Records())); diff != "" {
				t.Errorf("records (-want +got):\n%s", diff)
			}
		})
	}
}

// TestHandlerLevels: the ring keeps info and above whatever the log's own
// level; the next handler still gets only what its level allows.
func TestHandlerLevels(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		logLevel slog.Level
		wantRing []string
		wantOut  []string
	}{
		{"debug log", slog.LevelDebug, []string{"info", "warn", "error"}, []string{"debug", "info", "warn", "error"}},
		{"info log", slog.LevelInfo, []string{"info", "warn", "error"}, []string{"info", "warn", "error"}},
		{"quiet log", slog.LevelError, []string{"info", "warn", "error"}, []string{"error"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			ring := logring.NewRing(10)
			next := slog.NewTextHandler(&out, &slog.HandlerOptions{Level: tt.logLevel})
			log := slog.New(logring.New(next, ring, slog.LevelInfo))
			log.Debug("debug")
			log.Info("info")
			log.Warn("warn")
			log.Error("error")
			if diff := cmp.Diff(tt.wantRing, msgs(ring.Records())); diff != "" {
				t.Errorf("ring (-want +got):\n%s", diff)
			}
			var got []string
			for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
				if i := strings.Index(line, "msg="); i >= 0 {
					got = append(got, strings.Fields(line[i+4:])[0])
				}
			}
			if diff := cmp.Diff(tt.wantOut, got); diff != "" {
				t.Errorf("next handler (-want +got):\n%s", diff)
			}
		})
	}
}

// TestHandlerKeepsByName: the messages named (the request lines) are
// kept at any level, in the order logged, while other debug lines are not
// and the next handler still sees only what its level allows.
func TestHandlerKeepsByName(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		logLevel slog.Level
		wantOut  []string
	}{
		{"info log", slog.LevelInfo, []string{"started", "http", "failed"}},
		{"debug log", slog.LevelDebug, []string{"chatter", "http", "started", "http", "failed"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			ring := logring.NewRing(10)
			next := slog.NewTextHandler(&out, &slog.HandlerOptions{Level: tt.logLevel})
			log := slog.New(logring.New(next, ring, slog.LevelInfo, "http"))
			log.Debug("chatter")
			log.Debug("http", "status", 200)
			log.Info("started")
			log.Warn("http", "status", 503)
			log.Error("failed")
			want := []logring.Record{{Level: "DEBUG", Msg: "http", Attrs: map[string]string{"status": "200"}}, {Level: "INFO", Msg: "started"},
				{Level: "WARN", Msg: "http", Attrs: map[string]string{"status": "503"}}, {Level: "ERROR", Msg: "failed"}}
			got := ring.Records()
			for i := range got {
				got[i].Time = time.Time{}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("ring (-want +got):\n%s", diff)
			}
			var lines []string
			for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
				if i := strings.Index(line, "msg="); i >= 0 {
					lines = append(lines, strings.Fields(line[i+4:])[0])
				}
			}
			if diff := cmp.Diff(tt.wantOut, lines); diff != "" {
				t.Errorf("next handler (-want +got):\n%s", diff)
			}
		})
	}
}

// TestHandlerAttrs: attributes, from the call, from With and inside
// groups, are kept as strings under dotted keys.
func TestHandlerAttrs(t *testing.T) {
	t.Parallel()
	ring := logring.NewRing(10)
	log := slog.New(logring.New(slog.DiscardHandler, ring, slog.LevelInfo))
	log.With("component", "store").WithGroup("req").With("id", 7).
		Info("hello", "status", 200, slog.Group("size", "in", 3, "out", 4.5), "ok", true)
	recs := ring.Records()
	if len(recs) != 1 {
		t.Fatalf("%d records", len(recs))
	}
	want := map[string]string{
		"component": "store", "req.id": "7", "req.status": "200",
		"req.size.in": "3", "req.size.out": "4.5", "req.ok": "true",
	}
	if diff := cmp.Diff(want, recs[0].Attrs); diff != "" {
		t.Errorf("attrs (-want +got):\n%s", diff)
	}
	if recs[0].Level != "INFO" || recs[0].Time.IsZero() {
		t.Errorf("record: %+v", recs[0])
	}
	// A handler derived later does not change its parent's attributes.
	parent := log.With("a", 1)
	parent.With("b", 2).Info("child")
	parent.Info("parent")
	recs = ring.Records()
	if got := recs[len(recs)-1].Attrs; got["b"] != "" || got["a"] != "1" {
		t.Errorf("parent's attrs: %v", got)
	}
}

// TestConcurrentLogging runs loggers and readers at once (meant for -race):
// every record is either kept or pushed out, and reads are always whole.
func TestConcurrentLogging(t *testing.T) {
	t.Parallel()
	const size, writers, each = 50, 8, 500
	ring := logring.NewRing(size)
	log := slog.New(logring.New(slog.DiscardHandler, ring, slog.LevelInfo))
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			l := log.With("writer", w)
			for i := range each {
				l.Info("line", "i", i)
			}
		})
	}
	stop := make(chan struct{})
	var readers sync.WaitGroup
	for range 2 {
		readers.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				for _, r := range ring.Records() {
					if r.Msg != "line" || r.Attrs["writer"] == "" {
						t.Errorf("a torn record: %+v", r)
						return
					}
				}
			}
		})
	}
	wg.Wait()
	close(stop)
	readers.Wait()
	if got := len(ring.Records()); got != size {
		t.Fatalf("%d records kept, want %d", got, size)
	}
}

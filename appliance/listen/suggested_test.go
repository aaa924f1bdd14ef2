package listen_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/listen"
)

// suggestedMessage is a suggested_transcript of n tiny segments of one
// speaker with no sentence end, the shape that folds into one segment.
func suggestedMessage(n int) map[string]any {
	segs := make([]map[string]any, n)
	for i := range segs {
		segs[i] = map[string]any{"text": fmt.Sprintf("w%d", i)}
	}
	return map[string]any{"type": "suggested_transcript", "segments": segs, "stt_provider": "ext"}
}

// BenchmarkSuggestedTranscript is one custom-STT message of n tiny
// segments and a one-word message after it, from the socket write to the
// segments of the second sent back (a message over the bound is refused,
// so its cost is reading and refusing it).
func BenchmarkSuggestedTranscript(b *testing.B) {
	for _, n := range []int{1000, 5000, 20000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			msg := suggestedMessage(n)
			for b.Loop() {
				b.StopTimer()
				e := newEnv(b, listen.Timing{Flush: 5 * time.Millisecond, Heartbeat: time.Minute, Inactivity: time.Minute}, noScript)
				c := e.dial("language=en&sample_rate=16000&codec=pcm16&uid=u1&custom_stt=enabled")
				c.next(5*time.Second, isType("service_status"))
				b.StartTimer()
				c.sendJSON(msg)
				c.sendJSON(map[string]any{"type": "suggested_transcript", "segments": []map[string]any{{"text": "zz"}}})
				for !slices.ContainsFunc(c.segments(time.Minute), func(s appliance.TranscriptSegment) bool {
					return strings.HasSuffix(s.Text, "zz")
				}) {
				}
			}
		})
	}
}

// A message of 20,000 segments is ignored whole and the session goes on:
// the next message's words come back alone, and a message of 1,000 (the
// bound) is taken and folded into one segment.
func TestSuggestedTranscriptIsBounded(t *testing.T) {
	t.Parallel()
	e := newEnv(t, fast, noScript)
	c := e.dial("language=en&sample_rate=16000&codec=pcm16&uid=u1&custom_stt=enabled")
	c.next(5*time.Second, isType("service_status"))
	c.sendJSON(suggestedMessage(20000))
	c.sendJSON(map[string]any{"type": "suggested_transcript", "segments": []map[string]any{{"text": "Hello there.", "start": 0, "end": 1}}})
	if segs := c.segments(5 * time.Second); len(segs) != 1 || segs[0].Text != "Hello there." {
		t.Fatalf("after the 20,000-segment message: %+v", segs)
	}
	big := suggestedMessage(1000)
	for _, s := range big["segments"].([]map[string]any) {
		s["start"], s["end"] = 5.0, 5.0
	}
	c.sendJSON(big)
	segs := c.segments(5 * time.Second)
	if len(segs) != 1 || !strings.HasPrefix(segs[0].Text, "w0 w1 w2") || !strings.HasSuffix(segs[0].Text, "w998 w999") {
		t.Fatalf("a 1,000-segment message became %d segments", len(segs))
	}
}

// TestCustomSTTCountsAgainstTheUsersStreams: the custom-STT service opens
// the same routes, so the per-user cap holds there too.
func TestCustomSTTCountsAgainstTheUsersStreams(t *testing.T) {
	t.Parallel()
	e := newEnv(t, fast, noScript, func(d *listen.Deps) { d.UserStreams = 1 })
	url := "ws" + strings.TrimPrefix(e.http.URL, "http") + "/custom-stt?codec=pcm16"
	first, _, err := websocket.DefaultDialer.Dial(url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	second, _, err := websocket.DefaultDialer.Dial(url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	second.SetReadDeadline(time.Now().Add(3 * time.Second))
	_, _, err = second.ReadMessage()
	var ce *websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != websocket.ClosePolicyViolation || !strings.HasPrefix(ce.Text, "Too many live sessions") {
		t.Fatalf("the second connection: %v", err)
	}
}

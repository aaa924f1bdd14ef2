package api_test

import (
	"fmt"
	"net/http"
	"sync"
	"testing"
)

// A create's body is read into a buffer that the next create reuses as
// soon as the body is parsed: what each create stores must be its own
// words, on the fast parser and on the generic one (an unknown field sends
// a body there), with creates running side by side so that one's buffer
// is refilled while another is still being processed.
func TestCreatesKeepTheirOwnWordsAfterTheBufferIsReused(t *testing.T) {
	e := newEnv(t)
	text := func(word string, i int) string {
		return []string{
			"Remember to water the " + word + " before the trip on Friday.",
			"The " + word + " needs new soil and a sunny window, the café owner said.",
		}[i]
	}
	body := func(word string, generic bool) string {
		extra := ""
		if generic {
			extra = `,"some_future_field":{"nested":[1,2,3]}`
		}
		return fmt.Sprintf(`{"transcript_segments":[
 {"text":%q,"speaker":"SPEAKER_00","is_user":true,"start":0,"end":4},
 {"text":%q,"speaker":"SPEAKER_01","start":4.5,"end":9}]%s}`, text(word, 0), text(word, 1), extra)
	}
	const workers, each = 4, 6
	ids := make([][]string, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for k := range each {
				word := fmt.Sprintf("plant%dx%d", w, k)
				rec := e.do(http.MethodPost, "/v1/dev/user/conversations/from-segments", bearer(e.devRW), body(word, k%2 == 1))
				if rec.Code != http.StatusOK {
					t.Errorf("create %s: %d %s", word, rec.Code, rec.Body)
					return
				}
				ids[w] = append(ids[w], decode(t, rec)["id"].(string))
			}
		})
	}
	wg.Wait()
	for w := range workers {
		for k, id := range ids[w] {
			word := fmt.Sprintf("plant%dx%d", w, k)
			rec := e.do(http.MethodGet, "/v1/dev/user/conversations/"+id+"?include_transcript=true", bearer(e.devRW), "")
			if rec.Code != http.StatusOK {
				t.Fatalf("get %s: %d %s", id, rec.Code, rec.Body)
			}
			segs, _ := decode(t, rec)["transcript_segments"].([]any)
			if len(segs) != 2 {
				t.Fatalf("%s: %d segments, want 2", word, len(segs))
			}
			for i, s := range segs {
				if got := s.(map[string]any)["text"]; got != text(word, i) {
					t.Errorf("%s segment %d: %q, want %q", word, i, got, text(word, i))
				}
			}
		}
	}
}

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// TestCreatesSurviveKill9: every from-segments create the appliance
// acknowledged is on disk. Four clients create conversations (the group
// commit shares one transaction among the writes waiting at once) until
// kill -9 cuts them off mid-request; after a restart each acknowledged
// conversation is there, completed, filed, with its twelve segments in
// order, and findable by a word only its transcript says.
func TestCreatesSurviveKill9(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	srv := startServe(t, data, "HEARTH_RATE_LIMIT_BOOST=0")
	uid := mustCLI(t, "users", "add", "--data", data, "--name", "Ada")
	key := mustCLI(t, "keys", "create", "--data", data, "--user", uid, "--kind", "dev",
		"--scopes", "conversations:read,conversations:write")
	mcp := mustCLI(t, "keys", "create", "--data", data, "--user", uid, "--kind", "mcp")

	// wordOf is a word that only conversation n's transcript says.
	wordOf := func(n int) string { return fmt.Sprintf("zebra%04dx", n) }
	body := func(n int) string {
		var segs []string
		for i := range 12 {
			text := fmt.Sprintf("Segment %d of the budget meeting: we ship the report on Friday.", i)
			if i == 7 {
				text = "Remember the code word " + wordOf(n) + " for the vendor."
			}
			segs = append(segs, fmt.Sprintf(`{"text":%q,"speaker":"SPEAKER_0%d","is_user":%t,"start":%d,"end":%d}`,
				text, i%2, i%2 == 0, i*5, i*5+4))
		}
		return `{"transcript_segments":[` + strings.Join(segs, ",") + `]}`
	}

	var (
		mu    sync.Mutex
		acked = map[string]int{} // conversation id → n
		next  int
		wg    sync.WaitGroup
	)
	const killAfter = 120
	killed := make(chan struct{})
	var killOnce sync.Once
	kill := func() {
		close(killed)
		srv.cmd.Process.Signal(syscall.SIGKILL)
	}
	for range 4 {
		wg.Go(func() {
			for {
				mu.Lock()
				n := next
				next++
				mu.Unlock()
				req, _ := http.NewRequest("POST", srv.base+"/v1/dev/user/conversations/from-segments", bytes.NewReader([]byte(body(n))))
				req.Header.Set("Authorization", "Bearer "+key)
				req.Header.Set("Content-Type", "application/json")
				resp, err := client.Do(req)
				if err != nil {
					return // the appliance is gone: this one was never acknowledged
				}
				var out struct{ ID, Status string }
				err = json.NewDecoder(resp.Body).Decode(&out)
				resp.Body.Close()
				if err != nil || resp.StatusCode != 200 {
					select {
					case <-killed: // cut off mid-answer
						return
					default:
					}
					t.Errorf("create %d: %d %v", n, resp.StatusCode, err)
					return
				}
				mu.Lock()
				acked[out.ID] = n
				enough := len(acked) >= killAfter
				mu.Unlock()
				if enough {
					killOnce.Do(kill)
				}
			}
		})
	}
	wg.Wait()
	killOnce.Do(kill) // should every client have failed first
	<-srv.done
	if t.Failed() {
		return
	}

	srv = startServe(t, data, "HEARTH_RATE_LIMIT_BOOST=0")
	for id, n := range acked {
		code, got := srv.call(t, "GET", "/v1/dev/user/conversations/"+id+"?include_transcript=true", key, "")
		if code != 200 {
			t.Fatalf("acknowledged conversation %d (%s) lost in the crash: %d %s", n, id, code, got)
		}
		var c struct {
			FolderID           *string `json:"folder_id"`
			TranscriptSegments []struct {
				Text  string  `json:"text"`
				Start float64 `json:"start"`
			} `json:"transcript_segments"`
		}
		if err := json.Unmarshal([]byte(got), &c); err != nil {
			t.Fatal(err)
		}
		if len(c.TranscriptSegments) != 12 || c.FolderID == nil {
			t.Fatalf("conversation %d after the crash: %d segments, folder %v", n, len(c.TranscriptSegments), c.FolderID)
		}
		for i, s := range c.TranscriptSegments {
			if s.Start != float64(i*5) {
				t.Fatalf("conversation %d: segment %d starts at %v", n, i, s.Start)
			}
		}
		if !strings.Contains(c.TranscriptSegments[7].Text, wordOf(n)) {
			t.Fatalf("conversation %d: segment 7 says %q", n, c.TranscriptSegments[7].Text)
		}
	}
	// What was said is indexed too (the index catches up from what the
	// crash left pending): a few of them, by their own word.
	checked := 0
	for id, n := range acked {
		if checked == 5 {
			break
		}
		checked++
		code, got := srv.call(t, "GET", "/v1/mcp/conversations/search?query="+wordOf(n), mcp, "")
		if code != 200 || !strings.Contains(got, id) {
			t.Fatalf("conversation %d not found by %q after the crash: %d %s", n, wordOf(n), code, got)
		}
	}
	t.Logf("%d acknowledged creates, all kept", len(acked))
}

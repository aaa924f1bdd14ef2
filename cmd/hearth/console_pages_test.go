package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// claimConsole claims a fresh appliance as Ada and returns her browser.
func claimConsole(t *testing.T, srv *server) (*consoleClient, string) {
	t.Helper()
	ada := newConsoleClient(t, srv.base)
	st, v, _ := ada.do("POST", "/console/api/setup", `{"code":"`+setupCode(t, srv)+`","name":"Ada","password":"correct horse battery"}`)
	if st != 200 {
		t.Fatalf("setup: %d %v", st, v)
	}
	return ada, v["user"].(map[string]any)["id"].(string)
}

// change sends a state change with the CSRF token.
func (c *consoleClient) change(method, path, body string) (int, map[string]any) {
	c.t.Helper()
	st, v, _ := c.do(method, path, body, "X-CSRF-Token", c.csrf)
	return st, v
}

func (c *consoleClient) list(path string) []map[string]any {
	c.t.Helper()
	resp, b := c.get(path)
	var out []map[string]any
	if resp.StatusCode != 200 || json.Unmarshal(b, &out) != nil {
		c.t.Fatalf("GET %s: %d %s", path, resp.StatusCode, b)
	}
	return out
}

func devRequest(t *testing.T, method, url, key, body string) (int, []byte) {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b strings.Builder
	bufio.NewReader(resp.Body).WriteTo(&b)
	return resp.StatusCode, []byte(b.String())
}

// TestConsoleOwnerView: the console shows the owner everything of theirs,
// locked items whole, while the developer API keeps hiding them; stars and
// the bin are filters; a change needs the CSRF token.
func TestConsoleOwnerView(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	srv := startServe(t, data)
	ada, uid := claimConsole(t, srv)
	key := mustCLI(t, "keys", "create", "--data", data, "--user", uid, "--kind", "dev", "--scopes",
		"conversations:read,conversations:write,memories:read,memories:write,action_items:read")
	st, b := devRequest(t, "POST", srv.base+"/v1/dev/user/conversations/from-segments", key,
		`{"transcript_segments":[{"text":"Remember to renew the car insurance before the end of the month.","speaker":"SPEAKER_00","is_user":true,"start":0,"end":4}]}`)
	var conv struct{ ID string }
	if json.Unmarshal(b, &conv); st != 200 || conv.ID == "" {
		t.Fatalf("from-segments: %d %s", st, b)
	}
	id := conv.ID

	if st, _, _ := ada.do("PUT", "/console/api/conversations/"+id+"/locked", `{"locked":true}`); st != 403 {
		t.Fatalf("a change without the CSRF token: %d", st)
	}
	if st, v := ada.change("PUT", "/console/api/conversations/"+id+"/locked", `{"locked":true}`); st != 200 || v["locked"] != true {
		t.Fatalf("lock: %d %v", st, v)
	}
	got := ada.list("/console/api/conversations")
	if len(got) != 1 || got[0]["locked"] != true || !strings.Contains(got[0]["structured"].(map[string]any)["overview"].(string), "insurance") {
		t.Fatalf("the owner's list of a locked conversation: %v", got)
	}
	resp, detail := ada.get("/console/api/conversations/" + id)
	if resp.StatusCode != 200 || !strings.Contains(string(detail), `"is_user":true`) || !strings.Contains(string(detail), "car insurance") {
		t.Fatalf("the owner's detail: %d %s", resp.StatusCode, detail)
	}
	if st, _ := devRequest(t, "GET", srv.base+"/v1/dev/user/conversations/"+id, key, ""); st != 404 {
		t.Fatalf("the developer API reads a locked conversation: %d", st)
	}
	if items := ada.list("/console/api/action-items?completed=false"); len(items) != 1 || !strings.Contains(items[0]["description"].(string), "insurance") {
		t.Fatalf("the owner's action items of a locked conversation: %v", items)
	}
	if st, _ := ada.change("PATCH", "/console/api/conversations/"+id, `{"starred":true}`); st != 409 {
		t.Fatalf("starring a locked conversation: %d, want 409", st)
	}
	ada.change("PUT", "/console/api/conversations/"+id+"/locked", `{"locked":false}`)

	// Stars and the bin.
	if st, v := ada.change("PATCH", "/console/api/conversations/"+id, `{"starred":true}`); st != 200 || v["starred"] != true {
		t.Fatalf("star: %d %v", st, v)
	}
	if n := len(ada.list("/console/api/conversations?starred=true")); n != 1 {
		t.Fatalf("starred filter: %d", n)
	}
	if st, v := ada.change("PATCH", "/console/api/conversations/"+id, `{"title":"  "}`); st != 422 || v["detail"] == nil {
		t.Fatalf("an empty title: %d %v", st, v)
	}
	ada.change("PATCH", "/console/api/conversations/"+id, `{"discarded":true}`)
	if n, bin := len(ada.list("/console/api/conversations")), ada.list("/console/api/conversations?discarded=true"); n != 0 || len(bin) != 1 || bin[0]["discarded"] != true {
		t.Fatalf("the bin: %d listed, bin %v", n, bin)
	}
	if st, _ := ada.change("GET", "/console/api/conversations?categories=nonsense", ""); st != 400 {
		t.Fatalf("a bad category: %d", st)
	}

	// Memories: the owner reads a locked one whole; the API a preview.
	st, b = devRequest(t, "POST", srv.base+"/v1/dev/user/memories", key, `{"content":"The spare key to the house is kept under the blue flower pot by the back door, next to the old garden hose."}`)
	var mem struct{ ID string }
	if json.Unmarshal(b, &mem); st != 200 || mem.ID == "" {
		t.Fatalf("memory: %d %s", st, b)
	}
	if st, _ := ada.change("PUT", "/console/api/memories/"+mem.ID+"/locked", `{"locked":true}`); st != 200 {
		t.Fatalf("lock a memory: %d", st)
	}
	ms := ada.list("/console/api/memories")
	if len(ms) != 1 || ms[0]["is_locked"] != true || !strings.Contains(ms[0]["content"].(string), "garden hose") {
		t.Fatalf("the owner's memories: %v", ms)
	}
	if _, b := devRequest(t, "GET", srv.base+"/v1/dev/user/memories", key, ""); strings.Contains(string(b), "garden hose") {
		t.Fatalf("the developer API shows a locked memory whole: %s", b)
	}
}

// TestConsoleSpeechPage: vendors' keys go in and never come out, the file
// holding them is the owner's only, and a saved key turns its route on at
// once and after a restart; models are pulled from the owner's mirror with
// progress.
func TestConsoleSpeechPage(t *testing.T) {
	t.Parallel()
	weights := []byte(strings.Repeat("ggml test weights ", 20000))
	sum := sha256.Sum256(weights)
	mirror := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/ggml-test-tiny.bin" {
			http.NotFound(w, r)
			return
		}
		http.ServeContent(w, r, "", time.Time{}, strings.NewReader(string(weights)))
	}))
	defer mirror.Close()
	catalog := filepath.Join(t.TempDir(), "catalog.json")
	os.WriteFile(catalog, []byte(`[{"name":"test-tiny","size":`+strconv.Itoa(len(weights))+`,"sha256":"`+hex.EncodeToString(sum[:])+`","english":true}]`), 0o600)

	data := t.TempDir()
	srv := startServe(t, data, "HEARTH_MODELS_URL="+mirror.URL, "HEARTH_MODELS_CATALOG="+catalog)
	ada, _ := claimConsole(t, srv)
	speech := func(c *consoleClient) map[string]any {
		t.Helper()
		resp, b := c.get("/console/api/speech")
		var v map[string]any
		if resp.StatusCode != 200 || json.Unmarshal(b, &v) != nil {
			t.Fatalf("GET speech: %d %s", resp.StatusCode, b)
		}
		if strings.Contains(string(b), "dg-secret") {
			t.Fatalf("a vendor's key came back: %s", b)
		}
		return v
	}
	keyState := func(v map[string]any, name string) map[string]any {
		for _, k := range v["provider_keys"].([]any) {
			if k := k.(map[string]any); k["name"] == name {
				return k
			}
		}
		t.Fatalf("no %s in %v", name, v["provider_keys"])
		return nil
	}
	if k := keyState(speech(ada), "deepgram"); k["set"] != false || k["active"] != false {
		t.Fatalf("deepgram before: %v", k)
	}
	if st, _ := ada.change("PUT", "/console/api/speech/keys/deepgram", `{"key":"has a space"}`); st != 422 {
		t.Fatalf("a key with spaces: %d", st)
	}
	if st, _ := ada.change("PUT", "/console/api/speech/keys/acme", `{"key":"k"}`); st != 404 {
		t.Fatalf("an unknown vendor: %d", st)
	}
	if st, _ := ada.change("PUT", "/console/api/speech/keys/deepgram", `{"key":"dg-secret-0123456789"}`); st != 204 {
		t.Fatalf("save a key: %d", st)
	}
	if k := keyState(speech(ada), "deepgram"); k["set"] != true || k["active"] != true {
		t.Fatalf("deepgram after saving: %v", k)
	}
	if fi, err := os.Stat(filepath.Join(data, "provider-keys.json")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the keys file: %v %v", fi, err)
	}

	// Pull a model from the mirror; progress until it is there.
	if st, _ := ada.change("POST", "/console/api/speech/models/nope/pull", ""); st != 404 {
		t.Fatalf("pull an unknown model: %d", st)
	}
	if st, _ := ada.change("POST", "/console/api/speech/models/test-tiny/pull", ""); st != 202 {
		t.Fatalf("pull: %d", st)
	}
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		var found map[string]any
		for _, m := range speech(ada)["models"].([]any) {
			if m := m.(map[string]any); m["name"] == "test-tiny" {
				found = m
			}
		}
		if found["pulled"] == true {
			break
		}
		if p, _ := found["pull"].(map[string]any); p != nil && p["error"] != nil {
			t.Fatalf("the pull failed: %v", p)
		}
		if time.Now().After(deadline) {
			t.Fatalf("not pulled: %v", found)
		}
	}
	if _, err := os.Stat(filepath.Join(data, "models", "ggml-test-tiny.bin")); err != nil {
		t.Fatal(err)
	}

	// The saved key keeps the Deepgram route on after a restart.
	srv.stop(t)
	srv2 := startServe(t, data)
	if strings.Contains(srv2.logs.String(), "dg-secret") || strings.Contains(srv.logs.String(), "dg-secret") {
		t.Fatal("the vendor's key reached the log")
	}
	again := newConsoleClient(t, srv2.base)
	if st, _, _ := again.do("POST", "/console/api/login", `{"name":"Ada","password":"correct horse battery"}`); st != 200 {
		t.Fatalf("login: %d", st)
	}
	v := speech(again)
	if k := keyState(v, "deepgram"); k["set"] != true || k["active"] != true {
		t.Fatalf("deepgram after a restart: %v (routes %v)", k, v["routes"])
	}
	if st, _ := again.change("DELETE", "/console/api/speech/keys/deepgram", ""); st != 204 {
		t.Fatalf("remove the key: %d", st)
	}
	if k := keyState(speech(again), "deepgram"); k["set"] != false {
		t.Fatalf("deepgram after removal: %v", k)
	}
}

// TestConsoleLiveEvents: the live view's stream names the session's route
// and carries its segments as they arrive, for the signed-in owner only.
func TestConsoleLiveEvents(t *testing.T) {
	t.Parallel()
	packets := speechOpusFS320(t, "Please water the tomatoes in the greenhouse tonight.")
	data := t.TempDir()
	srv := startServe(t, data, writeScript(t, `{"name":"scripted","utterances":[{"text":"Please water the tomatoes in the greenhouse tonight.","speaker":0}]}`))
	ada, uid := claimConsole(t, srv)
	if resp, _ := newConsoleClient(t, srv.base).get("/console/api/live"); resp.StatusCode != 401 {
		t.Fatalf("live without a session: %d", resp.StatusCode)
	}
	req, _ := http.NewRequest("GET", srv.base+"/console/api/live/events", nil)
	resp, err := ada.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("events: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	events := make(chan [2]string, 64)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		var name string
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "event: "):
				name = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				events <- [2]string{name, strings.TrimPrefix(line, "data: ")}
			}
		}
		close(events)
	}()
	c := dialListen(t, srv.base, appQuery(uid, "opus_fs320", 2, ""), ownerToken(t, data, uid))
	go c.stream(packets, 2)
	var sawRoute, sawSegment bool
	for deadline := time.After(30 * time.Second); !sawRoute || !sawSegment; {
		select {
		case e, ok := <-events:
			if !ok {
				t.Fatal("the stream ended")
			}
			if e[0] == "sessions" && strings.Contains(e[1], `"route":"scripted"`) && strings.Contains(e[1], `"codec":"opus_fs320"`) {
				sawRoute = true
			}
			if e[0] == "conversation" && strings.Contains(e[1], `"conversation.segments_appended"`) && strings.Contains(e[1], "tomatoes") {
				sawSegment = true
			}
		case <-deadline:
			t.Fatalf("route seen %v, segment seen %v", sawRoute, sawSegment)
		}
	}
}

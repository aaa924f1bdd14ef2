package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/hearth-appliance/hearth/localstt/ggmltest"
)

// fakeDeepgram speaks Deepgram's /v1/listen for one key: a live socket
// that takes audio, and pre-recorded audio answered with one sentence.
func fakeDeepgram(t *testing.T, key, said string) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var calls atomic.Int32
	up := websocket.Upgrader{}
	fake := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/listen" || r.Header.Get("Authorization") != "Token "+key {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		calls.Add(1)
		if websocket.IsWebSocketUpgrade(r) {
			conn, err := up.Upgrade(w, r, nil)
			if err != nil {
				return
			}
			defer conn.Close()
			for { // take audio until the client closes
				if _, _, err := conn.ReadMessage(); err != nil {
					return
				}
			}
		}
		var words []map[string]any
		for i, wd := range strings.Fields(said) {
			words = append(words, map[string]any{"word": strings.Trim(strings.ToLower(wd), "."), "punctuated_word": wd,
				"start": 0.2 + 0.4*float64(i), "end": 0.5 + 0.4*float64(i), "speaker": 0})
		}
		json.NewEncoder(w).Encode(map[string]any{"results": map[string]any{"channels": []any{map[string]any{
			"alternatives": []any{map[string]any{"transcript": said, "words": words}}}}}})
	}))
	t.Cleanup(fake.Close)
	return fake, &calls
}

// speechPage is the console's Speech page data for the signed-in owner.
func speechPage(t *testing.T, c *consoleClient) map[string]any {
	t.Helper()
	resp, b := c.get("/console/api/speech")
	var v map[string]any
	if resp.StatusCode != 200 || json.Unmarshal(b, &v) != nil {
		t.Fatalf("GET speech: %d %s", resp.StatusCode, b)
	}
	return v
}

// routeState is one route of the Speech page.
func routeState(t *testing.T, v map[string]any, name string) map[string]any {
	t.Helper()
	for _, r := range v["routes"].([]any) {
		if r := r.(map[string]any); r["name"] == name {
			return r
		}
	}
	t.Fatalf("no route %s in %v", name, v["routes"])
	return nil
}

// readyProvider opens a new live session and returns the route its ready
// event names.
func readyProvider(t *testing.T, base, uid, token string) string {
	t.Helper()
	c := dialListen(t, base, appQuery(uid, "pcm16", 120, ""), token)
	ready := event(c.until(10*time.Second, "ready", func(m wsMsg) bool { return event(m, "service_status") != nil }), "service_status")
	if ready["status"] != "ready" {
		t.Fatalf("ready %v", ready)
	}
	p, _ := ready["provider"].(string)
	return p
}

// TestSpeechSettingsApplyWithoutARestart: a vendor's key saved in the
// console and the routes' order chosen there reach the next live session
// and the next voice message at once, with no restart; removing the key
// turns the route off again for the next session. The Speech page shows
// what is in effect each time, and the key reaches no log.
func TestSpeechSettingsApplyWithoutARestart(t *testing.T) {
	t.Parallel()
	needPocketSphinx(t)
	const key, said = "dg-live-key-0123456789", "Water the tomatoes tonight."
	fake, calls := fakeDeepgram(t, key, said)
	data := t.TempDir()
	srv := startServe(t, data, "HEARTH_DEEPGRAM_URL="+fake.URL)
	ada, uid := claimConsole(t, srv)
	token := ownerToken(t, data, uid)

	if p := readyProvider(t, srv.base, uid, token); p != "pocketsphinx" {
		t.Fatalf("before any setting: a session on %q", p)
	}
	if st, v := ada.change("PUT", "/console/api/speech/keys/deepgram", `{"key":"`+key+`"}`); st != 204 {
		t.Fatalf("save the key: %d %v", st, v)
	}
	v := speechPage(t, ada)
	if r := routeState(t, v, "deepgram"); r["on"] != true {
		t.Fatalf("deepgram with a key saved: %v", r)
	}
	if p := readyProvider(t, srv.base, uid, token); p != "pocketsphinx" {
		t.Fatalf("a key alone changed the order: a session on %q", p)
	}

	// Deepgram first: the next session and the next voice message go to it.
	for _, bad := range []struct{ body, says string }{
		{`{"order":["nope"]}`, "No speech route is called"},
		{`{"order":["deepgram","deepgram"]}`, "named twice"},
		{`{"order":"deepgram"}`, "list"},
	} {
		st, v := ada.change("PUT", "/console/api/speech/routes", bad.body)
		if b, _ := json.Marshal(v); (st != 400 && st != 422) || !strings.Contains(string(b), bad.says) {
			t.Fatalf("the order %s: %d %s", bad.body, st, b)
		}
	}
	if st, v := ada.change("PUT", "/console/api/speech/routes", `{"order":["deepgram","pocketsphinx"]}`); st != 200 {
		t.Fatalf("set the order: %d %v", st, v)
	}
	v = speechPage(t, ada)
	order := v["settings"].(map[string]any)["order"].([]any)
	if routes := v["routes"].([]any); len(routes) != 2 || routes[0].(map[string]any)["name"] != "deepgram" || order[0] != "deepgram" || order[1] != "pocketsphinx" {
		t.Fatalf("the page after the order: routes %v, order %v", routes, order)
	}
	before := calls.Load()
	if p := readyProvider(t, srv.base, uid, token); p != "deepgram" {
		t.Fatalf("after the order: a session on %q", p)
	}
	code, body := postRaw(t, srv.base+"/v2/voice-message/transcribe", token, rawPCM(t, speechWAV(t, "Water the tomatoes tonight.")))
	if code != 200 || !strings.Contains(body, `"stt_provider":"deepgram"`) || !strings.Contains(body, said) {
		t.Fatalf("a voice message after the order: %d %s", code, body)
	}
	if calls.Load()-before < 2 {
		t.Fatalf("the fake vendor saw %d calls, want the session's and the voice message's", calls.Load()-before)
	}

	// Without the key, the next session falls back to PocketSphinx.
	if st, _ := ada.change("DELETE", "/console/api/speech/keys/deepgram", ""); st != 204 {
		t.Fatalf("remove the key: %d", st)
	}
	if r := routeState(t, speechPage(t, ada), "deepgram"); r["on"] != false || !strings.Contains(r["why"].(string), "not configured") {
		t.Fatalf("deepgram without its key: %v", r)
	}
	before = calls.Load()
	if p := readyProvider(t, srv.base, uid, token); p != "pocketsphinx" {
		t.Fatalf("after removing the key: a session on %q", p)
	}
	if calls.Load() != before {
		t.Fatal("the vendor was called after its key was removed")
	}
	// The default order again.
	if st, v := ada.change("PUT", "/console/api/speech/routes", `{"order":[]}`); st != 200 || v["routes"].([]any)[0].(map[string]any)["name"] != "whisper" {
		t.Fatalf("back to the default order: %d %v", st, v)
	}
	time.Sleep(100 * time.Millisecond) // let the log's last lines in
	if strings.Contains(srv.logs.String(), key) {
		t.Fatal("the vendor's key reached the log")
	}
}

// TestTheChosenWhisperModelServesTheNextSession: two models pulled, the
// owner picks one on the Speech page and the whisper route runs it for the
// next job at once; the page says which model is in use. --stt-routes
// fixes the order, so the console may not change it.
func TestTheChosenWhisperModelServesTheNextSession(t *testing.T) {
	t.Parallel()
	needWhisperRoute(t)
	data := t.TempDir()
	dir := filepath.Join(data, "models")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	var entries []string
	for i, name := range []string{"test-a", "test-b"} {
		path := filepath.Join(dir, "ggml-"+name+".bin")
		if err := ggmltest.Write(path, ggmltest.Tiny, uint64(i+1)); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(b)
		entries = append(entries, `{"name":"`+name+`","size":`+strconv.Itoa(len(b))+`,"sha256":"`+hex.EncodeToString(sum[:])+`","english":true}`)
	}
	catalog := filepath.Join(t.TempDir(), "catalog.json")
	if err := os.WriteFile(catalog, []byte("["+strings.Join(entries, ",")+"]"), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := startServe(t, data, "HEARTH_STT_ROUTES=whisper", "HEARTH_MODELS_CATALOG="+catalog)
	ada, uid := claimConsole(t, srv)
	token := ownerToken(t, data, uid)
	modelInUse := func() string {
		t.Helper()
		r := routeState(t, speechPage(t, ada), "whisper")
		m, _ := r["model"].(string)
		return m
	}
	// The random models hear nothing (the job fails), but the one that ran
	// it has a speed measured on this box from then on.
	heardBy := func() string {
		t.Helper()
		postRaw(t, srv.base+"/v2/voice-message/transcribe", token, rawPCM(t, speechWAV(t, "call the landlord")))
		var ran []string
		for _, m := range speechPage(t, ada)["models"].([]any) {
			if m := m.(map[string]any); m["speed"] != nil {
				ran = append(ran, m["name"].(string))
			}
		}
		return strings.Join(ran, ",")
	}
	if m := modelInUse(); m != "test-a" {
		t.Fatalf("before choosing: the page says %q", m)
	}
	if ran := heardBy(); ran != "test-a" {
		t.Fatalf("before choosing: measured %q", ran)
	}
	if st, v := ada.change("PUT", "/console/api/speech/whisper-model", `{"name":"nope"}`); st != 404 {
		t.Fatalf("a model outside the catalog: %d %v", st, v)
	}
	if st, v := ada.change("PUT", "/console/api/speech/whisper-model", `{"name":"base.en"}`); st != 409 || !strings.Contains(v["detail"].(string), "not pulled yet") {
		t.Fatalf("a model not pulled: %d %v", st, v)
	}
	if st, v := ada.change("PUT", "/console/api/speech/whisper-model", `{"name":"test-b"}`); st != 200 {
		t.Fatalf("choose test-b: %d %v", st, v)
	}
	if m := modelInUse(); m != "test-b" {
		t.Fatalf("after choosing test-b: the page says %q", m)
	}
	if ran := heardBy(); ran != "test-a,test-b" {
		t.Fatalf("after choosing test-b: measured %q", ran)
	}
	for _, m := range speechPage(t, ada)["models"].([]any) {
		if m := m.(map[string]any); (m["name"] == "test-b") != (m["in_use"] == true) {
			t.Fatalf("the models' in_use: %v", m)
		}
	}
	v := speechPage(t, ada)["settings"].(map[string]any)
	if v["whisper_model"] != "test-b" || v["order_fixed_by"] != "--stt-routes" {
		t.Fatalf("settings %v", v)
	}
	if st, v := ada.change("PUT", "/console/api/speech/routes", `{"order":["pocketsphinx"]}`); st != 409 || !strings.Contains(v["detail"].(string), "--stt-routes") {
		t.Fatalf("an order the flag fixes: %d %v", st, v)
	}
}

// TestAnOfflinePullSaysSo: a model pull from a box without internet ends
// in a sentence saying what to do, not the dialer's words.
func TestAnOfflinePullSaysSo(t *testing.T) {
	t.Parallel()
	catalog := filepath.Join(t.TempDir(), "catalog.json")
	os.WriteFile(catalog, []byte(`[{"name":"far-away","size":1000,"sha256":"`+strings.Repeat("0", 64)+`","url":"http://models.hearth.invalid/ggml-far-away.bin"}]`), 0o600)
	srv := startServe(t, t.TempDir(), "HEARTH_MODELS_CATALOG="+catalog)
	ada, _ := claimConsole(t, srv)
	if st, _ := ada.change("POST", "/console/api/speech/models/far-away/pull", ""); st != 202 {
		t.Fatalf("pull: %d", st)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		var pull map[string]any
		for _, m := range speechPage(t, ada)["models"].([]any) {
			if m := m.(map[string]any); m["name"] == "far-away" {
				pull, _ = m["pull"].(map[string]any)
			}
		}
		if pull != nil && pull["running"] == false {
			if pull["error"] != "No internet connection: pull from a mirror with --models-url." {
				t.Fatalf("the pull's error: %v", pull["error"])
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the pull did not end: %v", pull)
		}
	}
}

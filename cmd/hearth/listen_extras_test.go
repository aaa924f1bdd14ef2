package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/jpeg"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// TestListenSpeakersPhotosAndTranslation drives what a live session keeps
// besides segments, the way the Omi app sends it: translations through the
// LLM route (a fake OpenAI-compatible server), the owner naming speakers,
// and a photo in base64 pieces. All of it is on the processed conversation.
func TestListenSpeakersPhotosAndTranslation(t *testing.T) {
	t.Parallel()
	llmSrv, _ := fakeLLM(t, &atomic.Bool{})
	data := t.TempDir()
	srv := startServe(t, data, "HEARTH_LLM_BASE_URL="+llmSrv.URL+"/v1", "HEARTH_LLM_MODEL=fake", "HEARTH_LLM_API_KEY=sk-test",
		"HEARTH_TRANSLATE_TO=en")
	uid := mustCLI(t, "users", "add", "--data", data, "--name", "Ada")
	token := mustCLI(t, "token", "--data", data, "--user", uid)
	key := mustCLI(t, "keys", "create", "--data", data, "--user", uid, "--kind", "dev")

	q := strings.Replace(appQuery(uid, "opus_fs320", 600, "custom_stt=enabled"), "language=en", "language=es", 1)
	c := dialListen(t, srv.base, q, token)
	c.until(10*time.Second, "ready", func(m wsMsg) bool { return event(m, "service_status") != nil })
	c.conn.WriteMessage(websocket.TextMessage, []byte(`{"type":"suggested_transcript","stt_provider":"on-device","segments":[
		{"text":"Mañana por la mañana compramos pan.","speaker":"SPEAKER_01","speaker_id":1,"start":0.5,"end":2.5}]}`))
	segs := segmentsOf(c.until(10*time.Second, "segments", func(m wsMsg) bool { return segmentsOf(m) != nil }))
	segID := segs[0]["id"].(string)
	tr := event(c.until(10*time.Second, "translating", func(m wsMsg) bool { return event(m, "translating") != nil }), "translating")
	trSegs := tr["segments"].([]any)
	if len(trSegs) != 1 || !strings.Contains(mustJSON(trSegs[0]), `"translations":[{"lang":"en","text":"We will buy bread tomorrow morning."}]`) {
		t.Fatalf("translating %v", tr)
	}

	c.conn.WriteMessage(websocket.TextMessage, []byte(`{"type":"speaker_assigned","speaker_id":1,"person_id":"p-lucia","person_name":"Lucía","segment_ids":["`+segID+`"]}`))

	img := image.NewGray(image.Rect(0, 0, 32, 24))
	var jpg bytes.Buffer
	jpeg.Encode(&jpg, img, nil)
	b64 := base64.StdEncoding.EncodeToString(jpg.Bytes())
	half := len(b64) / 2
	for i, part := range []string{b64[:half], b64[half:]} {
		c.conn.WriteMessage(websocket.TextMessage, []byte(`{"type":"image_chunk","id":"cam-1","index":`+string(rune('0'+i))+`,"total":2,"data":"`+part+`"}`))
	}
	described := event(c.until(10*time.Second, "photo_described", func(m wsMsg) bool { return event(m, "photo_described") != nil }), "photo_described")
	if described["description"] != "A 32×24 JPEG photo." || described["discarded"] != false {
		t.Fatalf("photo_described %v", described)
	}

	req, _ := http.NewRequest("POST", srv.base+"/v1/conversations", strings.NewReader("{}"))
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := client.Do(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("end recording: %v %v", err, resp)
	}
	resp.Body.Close()
	created := event(c.until(20*time.Second, "memory_created", func(m wsMsg) bool { return event(m, "memory_created") != nil }), "memory_created")
	memory := mustJSON(created["memory"])
	for _, want := range []string{`"person_id":"p-lucia"`, `"text":"We will buy bread tomorrow morning."`, `"base64":"` + b64[:16],
		`"description":"A 32×24 JPEG photo."`} {
		if !strings.Contains(memory, want) {
			t.Errorf("memory_created lacks %s: %s", want, memory)
		}
	}
	// The developer API names the person the owner assigned.
	id := created["memory"].(map[string]any)["id"].(string)
	if _, body := srv.call(t, "GET", "/v1/dev/user/conversations/"+id+"?include_transcript=true", key, ""); !strings.Contains(body, `"speaker_name":"Lucía"`) {
		t.Errorf("developer API: %s", body)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

package main

import (
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// namePeople records a conversation as the app does, with the client's own
// transcript (custom STT), names its two guests (speaker_assigned) and ends
// it: the user then has the people Lucía and Lu, two segments each.
func namePeople(t *testing.T, srv *server, data, uid string) {
	t.Helper()
	token := mustCLI(t, "token", "--data", data, "--user", uid)
	c := dialListen(t, srv.base, appQuery(uid, "opus_fs320", 600, "custom_stt=enabled"), token)
	c.until(10*time.Second, "ready", func(m wsMsg) bool { return event(m, "service_status") != nil })
	c.conn.WriteMessage(websocket.TextMessage, []byte(`{"type":"suggested_transcript","stt_provider":"on-device","segments":[
		{"text":"Shall we plant the tomatoes on Saturday?","speaker":"SPEAKER_01","speaker_id":1,"start":0.5,"end":2.5},
		{"text":"Saturday works, I will bring the seedlings.","speaker":"SPEAKER_02","speaker_id":2,"start":3,"end":5},
		{"text":"Then we need compost as well.","speaker":"SPEAKER_01","speaker_id":1,"start":5.5,"end":7},
		{"text":"I have two bags in the shed.","speaker":"SPEAKER_02","speaker_id":2,"start":7.5,"end":9}]}`))
	ids := map[int][]string{}
	for n := 0; n < 4; {
		for _, s := range segmentsOf(c.until(10*time.Second, "segments", func(m wsMsg) bool { return segmentsOf(m) != nil })) {
			ids[int(s["speaker_id"].(float64))] = append(ids[int(s["speaker_id"].(float64))], s["id"].(string))
			n++
		}
	}
	for speaker, person := range map[int]string{1: `"person_id":"p-lucia","person_name":"Lucía"`, 2: `"person_id":"p-lu","person_name":"Lu"`} {
		segs := `["` + strings.Join(ids[speaker], `","`) + `"]`
		c.conn.WriteMessage(websocket.TextMessage, []byte(`{"type":"speaker_assigned","speaker_id":`+string(rune('0'+speaker))+`,`+person+`,"segment_ids":`+segs+`}`))
	}
	time.Sleep(300 * time.Millisecond) // the assignments are read before the recording ends
	req, _ := http.NewRequest("POST", srv.base+"/v1/conversations", strings.NewReader("{}"))
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("end recording: %v %v", err, resp)
	}
	resp.Body.Close()
	c.until(20*time.Second, "memory_created", func(m wsMsg) bool { return event(m, "memory_created") != nil })
	c.conn.Close()
}

// TestConsolePeople: the People page's API. The owner's people with how
// many segments name them; rename, merge (the segments follow) and delete;
// another user sees none of them and cannot touch them.
func TestConsolePeople(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	srv := startServe(t, data)
	ada, uid := claimConsole(t, srv)
	namePeople(t, srv, data, uid)

	byName := func() map[string]map[string]any {
		out := map[string]map[string]any{}
		for _, p := range ada.list("/console/api/people") {
			out[p["name"].(string)] = p
		}
		return out
	}
	people := byName()
	lucia, lu := people["Lucía"], people["Lu"]
	if len(people) != 2 || lucia["segments"] != 2.0 || lu["segments"] != 2.0 {
		t.Fatalf("people: %v", people)
	}
	if st, _, _ := ada.do("PATCH", "/console/api/people/p-lu", `{"name":"Luis"}`); st != 403 {
		t.Fatalf("rename without the CSRF token: %d", st)
	}
	if st, v := ada.change("PATCH", "/console/api/people/p-lu", `{"name":"   "}`); st != 422 || v["detail"] == nil {
		t.Fatalf("an empty name: %d %v", st, v)
	}
	if st, v := ada.change("PATCH", "/console/api/people/p-lu", `{"name":"Luis"}`); st != 200 || v["name"] != "Luis" || v["segments"] != 2.0 {
		t.Fatalf("rename: %d %v", st, v)
	}

	// Another user sees nobody and can change nobody.
	grace := mustCLI(t, "users", "add", "--data", data, "--name", "Grace")
	setPassword(t, data, grace, "grace's own password")
	gc := newConsoleClient(t, srv.base)
	if st, _, _ := gc.do("POST", "/console/api/login", `{"name":"Grace","password":"grace's own password"}`); st != 200 {
		t.Fatalf("Grace's login: %d", st)
	}
	if got := gc.list("/console/api/people"); len(got) != 0 {
		t.Fatalf("Grace sees Ada's people: %v", got)
	}
	for _, try := range [][3]string{{"PATCH", "/console/api/people/p-lu", `{"name":"Mallory"}`},
		{"POST", "/console/api/people/p-lu/merge", `{"into":"p-lucia"}`}, {"DELETE", "/console/api/people/p-lu", ""}} {
		if st, _ := gc.change(try[0], try[1], try[2]); st != 404 {
			t.Fatalf("Grace: %s %s: %d", try[0], try[1], st)
		}
	}

	if st, _ := ada.change("POST", "/console/api/people/p-lu/merge", `{"into":"p-lu"}`); st != 422 {
		t.Fatalf("merge into self: %d", st)
	}
	if st, _ := ada.change("POST", "/console/api/people/p-lu/merge", `{"into":"p-lucia"}`); st != 204 {
		t.Fatalf("merge: %d", st)
	}
	people = byName()
	if len(people) != 1 || people["Lucía"]["segments"] != 4.0 {
		t.Fatalf("after the merge: %v", people)
	}
	if st, _ := ada.change("DELETE", "/console/api/people/p-lucia", ""); st != 204 {
		t.Fatalf("delete: %d", st)
	}
	if got := ada.list("/console/api/people"); len(got) != 0 {
		t.Fatalf("after delete: %v", got)
	}
	// The segments stay, naming nobody.
	convs := ada.list("/console/api/conversations")
	if len(convs) != 1 {
		t.Fatalf("conversations: %v", convs)
	}
	if _, b := ada.get("/console/api/conversations/" + convs[0]["id"].(string)); !strings.Contains(string(b), "two bags in the shed") || strings.Contains(string(b), "Lucía") {
		t.Fatalf("the transcript after delete: %s", b)
	}
}

// setPassword sets a user's console password from the shell.
func setPassword(t *testing.T, data, uid, password string) {
	t.Helper()
	cmd := exec.Command(hearthBin, "users", "passwd", "--data", data, "--user", uid)
	cmd.Stdin = strings.NewReader(password + "\n")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("users passwd: %v\n%s", err, out)
	}
}

package main

import (
	"fmt"
	"strings"
	"testing"
)

// TestConsoleHousehold: the household through the binary. The owner
// invites a member with a one-time code; the member chooses a password
// with it and signs in; every owner-only action the member tries through
// the console API is refused with a sentence naming whom to ask, changes
// nothing, and lands in the audit trail; the member's System and Speech
// pages hold none of the box's settings. The owner resets the member's
// password (the old one and the member's browser stop at once), hands the
// appliance over, and the new owner removes the former one. The command
// line does the same: invite, list with roles, reset, remove; its changes
// are in the audit trail too.
func TestConsoleHousehold(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	srv := startServe(t, data)
	code := setupCode(t, srv)

	ada := newConsoleClient(t, srv.base)
	st, v, _ := ada.do("POST", "/console/api/setup", `{"code":"`+code+`","name":"Ada","password":"correct horse battery"}`)
	if st != 200 || role(v) != "owner" {
		t.Fatalf("setup: %d %v", st, v)
	}
	adaID := v["user"].(map[string]any)["id"].(string)
	change := func(c *consoleClient, method, path, body string) (int, map[string]any) {
		t.Helper()
		st, v, _ := c.do(method, path, body, "X-CSRF-Token", c.csrf, "Origin", srv.base)
		return st, v
	}

	// The owner invites Bo; Bo's code sets his password once.
	st, v = change(ada, "POST", "/console/api/members", `{"name":"Bo"}`)
	invite, _ := v["code"].(string)
	if st != 201 || invite == "" || !strings.HasSuffix(fmt.Sprint(v["link"]), "/console#/code/"+invite) || v["expires_at"] == nil {
		t.Fatalf("invite Bo: %d %v", st, v)
	}
	boID := v["member"].(map[string]any)["id"].(string)
	if st, v := change(ada, "POST", "/console/api/members", `{"name":"bo"}`); st != 409 {
		t.Errorf("a second Bo: %d %v", st, v)
	}
	bo := newConsoleClient(t, srv.base)
	if st, v, _ := bo.do("POST", "/console/api/redeem", `{"code":"`+invite+`","password":"short"}`); st != 422 && st != 400 {
		t.Errorf("a short password with the invite: %d %v", st, v)
	}
	st, v, _ = bo.do("POST", "/console/api/redeem", `{"code":"`+strings.ReplaceAll(invite, "-", " ")+`","password":"bo's long password"}`)
	if st != 200 || role(v) != "member" || v["owner_name"] != "Ada" {
		t.Fatalf("Bo redeems his invite: %d %v", st, v)
	}
	if st, v, _ := newConsoleClient(t, srv.base).do("POST", "/console/api/redeem", `{"code":"`+invite+`","password":"someone else's password"}`); st != 401 {
		t.Errorf("the invite used twice: %d %v", st, v)
	}

	// Every owner-only action, tried by the member.
	attempts := []struct{ method, path, body string }{
		{"PUT", "/console/api/speech/keys/deepgram", `{"key":"dg-secret-of-bo"}`},
		{"DELETE", "/console/api/speech/keys/openai", ""},
		{"POST", "/console/api/speech/models/tiny.en/pull", ""},
		{"PUT", "/console/api/speech/routes", `{"order":["deepgram"]}`},
		{"PUT", "/console/api/speech/whisper-model", `{"name":"tiny.en"}`},
		{"GET", "/console/api/system/backup", ""},
		{"GET", "/console/api/system/audit", ""},
		{"GET", "/console/api/members", ""},
		{"POST", "/console/api/members", `{"name":"Eve"}`},
		{"POST", "/console/api/members/" + adaID + "/reset", ""},
		{"POST", "/console/api/members/" + boID + "/owner", ""},
		{"DELETE", "/console/api/members/" + adaID, ""},
	}
	for _, a := range attempts {
		st, v := change(bo, a.method, a.path, a.body)
		if detail, _ := v["detail"].(string); st != 403 || !strings.Contains(detail, "Only the appliance's owner may") || !strings.Contains(detail, "Ask Ada") {
			t.Errorf("Bo's %s %s: %d %v", a.method, a.path, st, v)
		}
	}
	_, sys, _ := bo.do("GET", "/console/api/system", "")
	for _, k := range []string{"data_dir", "log", "disk", "routes"} {
		if _, shown := sys[k]; shown {
			t.Errorf("Bo's System page shows %s: %v", k, sys[k])
		}
	}
	if sys["owner_only"] != true || sys["version"] == "" {
		t.Errorf("Bo's System page: %v", sys)
	}
	_, speech, _ := bo.do("GET", "/console/api/speech", "")
	if speech["owner_only"] != true || len(speech["routes"].([]any)) != 0 || len(speech["provider_keys"].([]any)) != 0 {
		t.Errorf("Bo's Speech page: %v", speech)
	}

	// Nothing changed: no key, no download, the same two members, and
	// Ada's password still works.
	_, speech, _ = ada.do("GET", "/console/api/speech", "")
	if settings := speech["settings"].(map[string]any); settings["order"].([]any)[0] != "whisper" || settings["whisper_model"] != "" {
		t.Errorf("the speech settings changed: %v", settings)
	}
	for _, k := range speech["provider_keys"].([]any) {
		if k := k.(map[string]any); k["set"] == true {
			t.Errorf("a key was saved: %v", k)
		}
	}
	for _, m := range speech["models"].([]any) {
		if m := m.(map[string]any); m["pull"] != nil || m["pulled"] == true {
			t.Errorf("a model download started: %v", m)
		}
	}
	members := func(c *consoleClient) map[string]string {
		t.Helper()
		st, v, _ := c.do("GET", "/console/api/members", "")
		if st != 200 {
			t.Fatalf("members: %d %v", st, v)
		}
		out := map[string]string{}
		for _, m := range v["members"].([]any) {
			m := m.(map[string]any)
			out[m["name"].(string)] = m["role"].(string)
		}
		return out
	}
	if got := members(ada); len(got) != 2 || got["Ada"] != "owner" || got["Bo"] != "member" {
		t.Errorf("members after Bo's attempts: %v", got)
	}
	if st, _, _ := newConsoleClient(t, srv.base).do("POST", "/console/api/login", `{"name":"Ada","password":"correct horse battery"}`); st != 200 {
		t.Errorf("Ada's password after Bo's attempts: %d", st)
	}
	// ...and every attempt is on the record, by Bo, refused.
	audit := func(c *consoleClient) []map[string]any {
		t.Helper()
		st, v, _ := c.do("GET", "/console/api/system/audit", "")
		if st != 200 {
			t.Fatalf("audit: %d %v", st, v)
		}
		var out []map[string]any
		for _, e := range v["audit"].([]any) {
			out = append(out, e.(map[string]any))
		}
		return out
	}
	refused := 0
	for _, e := range audit(ada) {
		if e["refused"] == true && e["user_name"] == "Bo" && e["user_id"] == boID {
			refused++
			if e["action"] == "member removed" && e["target"] != "Ada" {
				t.Errorf("a refused removal's target: %v", e)
			}
		}
	}
	if refused != len(attempts) {
		t.Errorf("%d of Bo's %d attempts audited: %v", refused, len(attempts), audit(ada))
	}

	// The owner's own change of a setting is on the record too.
	if st, v := change(ada, "PUT", "/console/api/speech/keys/deepgram", `{"key":"dg-secret-of-ada"}`); st != 204 {
		t.Fatalf("Ada saves a key: %d %v", st, v)
	}
	if st, v := change(ada, "DELETE", "/console/api/speech/keys/deepgram", ""); st != 204 {
		t.Fatalf("Ada removes the key: %d %v", st, v)
	}

	// The owner resets Bo's password: his browser and old password stop;
	// the reset code gives him a new one.
	st, v = change(ada, "POST", "/console/api/members/"+boID+"/reset", "")
	reset, _ := v["code"].(string)
	if st != 200 || reset == "" {
		t.Fatalf("reset Bo: %d %v", st, v)
	}
	if _, v, _ := bo.do("GET", "/console/api/state", ""); v["signed_in"] != false {
		t.Errorf("Bo still signed in after the reset: %v", v)
	}
	if st, _, _ := newConsoleClient(t, srv.base).do("POST", "/console/api/login", `{"name":"Bo","password":"bo's long password"}`); st != 401 {
		t.Errorf("Bo's old password after the reset: %d", st)
	}
	if st, v, _ := bo.do("POST", "/console/api/redeem", `{"code":"`+reset+`","password":"bo's newer password"}`); st != 200 {
		t.Fatalf("Bo redeems the reset code: %d %v", st, v)
	}
	if st, v := change(ada, "POST", "/console/api/members/"+adaID+"/reset", ""); st != 409 {
		t.Errorf("the owner resets her own password: %d %v", st, v)
	}

	// Ada hands the appliance to Bo, who may now do what he could not;
	// Ada may not, and Bo removes her.
	if st, v := change(ada, "POST", "/console/api/members/"+boID+"/owner", ""); st != 204 {
		t.Fatalf("transfer to Bo: %d %v", st, v)
	}
	if _, v, _ := ada.do("GET", "/console/api/state", ""); role(v) != "member" || v["owner_name"] != "Bo" {
		t.Errorf("Ada after the transfer: %v", v)
	}
	if st, v := change(ada, "GET", "/console/api/system/backup", ""); st != 403 || !strings.Contains(fmt.Sprint(v["detail"]), "Ask Bo") {
		t.Errorf("Ada's backup after the transfer: %d %v", st, v)
	}
	if st, v := change(bo, "DELETE", "/console/api/members/"+boID, ""); st != 409 {
		t.Errorf("the owner removes himself: %d %v", st, v)
	}
	if st, v := change(bo, "DELETE", "/console/api/members/"+adaID, ""); st != 204 {
		t.Fatalf("Bo removes Ada: %d %v", st, v)
	}
	if st, _, _ := ada.do("GET", "/console/api/conversations", ""); st != 401 {
		t.Errorf("a removed member's browser: %d", st)
	}
	if got := members(bo); len(got) != 1 || got["Bo"] != "owner" {
		t.Errorf("members after the removal: %v", got)
	}
	done := map[string]string{}
	for _, e := range audit(bo) {
		if e["refused"] == false {
			done[e["action"].(string)] = fmt.Sprint(e["user_name"], " ", e["target"])
		}
	}
	for action, want := range map[string]string{"appliance claimed": "Ada ", "speech key set": "Ada deepgram", "speech key removed": "Ada deepgram", "member invited": "Ada Bo", "password reset": "Ada Bo",
		"ownership transferred": "Ada Bo", "member removed": "Bo Ada"} {
		if done[action] != want {
			t.Errorf("audit of %q: %q, want %q (all: %v)", action, done[action], want, done)
		}
	}

	// The command line: invite, list with roles, reset, remove.
	cy := mustCLI(t, "users", "invite", "--data", data, "--name", "Cy")
	if len(cy) != 19 {
		t.Fatalf("users invite printed %q", cy)
	}
	cyc := newConsoleClient(t, srv.base)
	if st, v, _ := cyc.do("POST", "/console/api/redeem", `{"code":"`+cy+`","password":"cy's long password"}`); st != 200 || role(v) != "member" {
		t.Fatalf("Cy redeems the command line's invite: %d %v", st, v)
	}
	list := mustCLIOut(t, "users", "list", "--data", data)
	var cyID, ownerID string
	for _, line := range strings.Split(list, "\n") {
		if f := strings.Fields(line); len(f) > 2 && f[1] == "Cy" && f[2] == "member" {
			cyID = f[0]
		} else if len(f) > 2 && f[1] == "Bo" && f[2] == "owner" {
			ownerID = f[0]
		}
	}
	if !strings.Contains(list, "ROLE") || ownerID != boID || cyID == "" {
		t.Fatalf("users list:\n%s", list)
	}
	if again := mustCLI(t, "users", "reset", "--data", data, "--user", cyID); len(again) != 19 {
		t.Errorf("users reset printed %q", again)
	}
	if _, errOut, code := cli(t, "users", "remove", "--data", data, "--user", boID); code == 0 || !strings.Contains(errOut, "owner cannot be removed") {
		t.Errorf("users remove of the owner: exit %d %s", code, errOut)
	}
	mustCLI(t, "users", "remove", "--data", data, "--user", cyID)
	if got := members(bo); len(got) != 1 {
		t.Errorf("members after users remove: %v", got)
	}
	setPassword(t, data, mustCLI(t, "users", "add", "--data", data, "--name", "Dee"), "dee's long password")
	var shell []string
	for _, e := range audit(bo)[:3] {
		if e["user_name"] == "command line" && e["user_id"] == "" {
			shell = append(shell, fmt.Sprint(e["action"], " ", e["target"]))
		}
	}
	if got := strings.Join(shell, ", "); got != "password set Dee, member added Dee, member removed Cy" {
		t.Errorf("the command line's changes in the audit: %s", got)
	}
}

// role is the signed-in user's role in a state reply.
func role(v map[string]any) string {
	u, _ := v["user"].(map[string]any)
	r, _ := u["role"].(string)
	return r
}

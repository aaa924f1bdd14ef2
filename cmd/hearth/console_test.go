package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
)

// consoleClient is a browser: a cookie jar and the CSRF token the state
// endpoints hand it.
type consoleClient struct {
	t    *testing.T
	base string
	http *http.Client
	csrf string
}

func newConsoleClient(t *testing.T, base string) *consoleClient {
	jar, _ := cookiejar.New(nil)
	return &consoleClient{t: t, base: base, http: &http.Client{Jar: jar, Timeout: 30 * time.Second}}
}

func (c *consoleClient) do(method, path, body string, headers ...string) (int, map[string]any, http.Header) {
	c.t.Helper()
	req, _ := http.NewRequest(method, c.base+path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := c.http.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var v map[string]any
	json.Unmarshal(b, &v)
	if tok, ok := v["csrf_token"].(string); ok {
		c.csrf = tok
	}
	return resp.StatusCode, v, resp.Header
}

// TestConsoleSignIn: serve prints a one-time setup code; only with it can
// the appliance be claimed; the browser session is an HttpOnly,
// SameSite=Strict cookie, and every state change needs its CSRF token and
// this appliance's origin; a second user sees none of the first's
// conversations; `hearth users passwd` sets a password from the shell.
func TestConsoleSignIn(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	srv := startServe(t, data)
	var code string
	printed := regexp.MustCompile(`setup code (\d{4}-\d{4}-\d{4}-\d{4})`)
	for deadline := time.Now().Add(10 * time.Second); code == "" && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if m := printed.FindStringSubmatch(srv.logs.String()); m != nil {
			code = m[1]
		}
	}
	if code == "" {
		t.Fatalf("no setup code printed:\n%s", srv.logs.String())
	}
	// The console's page, where the printed address leads.
	for path, want := range map[string]string{"/console": "Claim this appliance", "/console/lib.js": "X-CSRF-Token"} {
		resp, err := http.Get(srv.base + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(b), want) || !strings.Contains(resp.Header.Get("Content-Security-Policy"), "default-src 'self'") {
			t.Fatalf("GET %s: %d %.80q", path, resp.StatusCode, b)
		}
	}
	ada := newConsoleClient(t, srv.base)
	if st, v, _ := ada.do("GET", "/console/api/state", ""); st != 200 || v["claimed"] != false || v["signed_in"] != false {
		t.Fatalf("state before: %d %v", st, v)
	}
	if st, _, _ := ada.do("POST", "/console/api/setup", `{"code":"0000-0000-0000-0000","name":"Ada","password":"correct horse battery"}`); st != 401 {
		t.Fatalf("a wrong code: %d", st)
	}
	if st, _, _ := ada.do("POST", "/console/api/setup", `{"code":"`+code+`","name":"Ada","password":"short"}`); st != 400 {
		t.Fatalf("a short password: %d", st)
	}
	st, v, h := ada.do("POST", "/console/api/setup", `{"code":"`+code+`","name":"Ada","password":"correct horse battery"}`)
	cookie := h.Get("Set-Cookie")
	if st != 200 || v["signed_in"] != true || ada.csrf == "" || !strings.Contains(cookie, "HttpOnly") || !strings.Contains(cookie, "SameSite=Strict") {
		t.Fatalf("setup: %d %v %q", st, v, cookie)
	}
	if strings.Contains(srv.logs.String(), "correct horse") {
		t.Fatal("the password reached the log")
	}
	adaID := v["user"].(map[string]any)["id"].(string)
	if st, _, _ := newConsoleClient(t, srv.base).do("POST", "/console/api/setup", `{"code":"`+code+`","password":"another password here"}`); st != 409 {
		t.Fatalf("a second claim: %d", st)
	}

	// Ada's conversation, made through the developer API.
	key := mustCLI(t, "keys", "create", "--data", data, "--user", adaID, "--kind", "dev", "--scopes", "conversations:read,conversations:write")
	req, _ := http.NewRequest("POST", srv.base+"/v1/dev/user/conversations/from-segments",
		strings.NewReader(`{"transcript_segments":[{"text":"Call the plumber about the kitchen sink tomorrow morning.","speaker":"SPEAKER_00","is_user":true,"start":0,"end":3}]}`))
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var conv struct{ ID string }
	json.NewDecoder(resp.Body).Decode(&conv)
	resp.Body.Close()
	if conv.ID == "" {
		t.Fatalf("no conversation: %d", resp.StatusCode)
	}
	list := func(c *consoleClient) []any {
		t.Helper()
		req, _ := http.NewRequest("GET", c.base+"/console/api/conversations", nil)
		resp, err := c.http.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out []any
		if resp.StatusCode != 200 || json.NewDecoder(resp.Body).Decode(&out) != nil {
			t.Fatalf("list: %d", resp.StatusCode)
		}
		return out
	}
	if got := list(ada); len(got) != 1 {
		t.Fatalf("Ada's list: %v", got)
	}

	// A second user, with a password set from the shell.
	bo := mustCLI(t, "users", "add", "--data", data, "--name", "Bo")
	cmd := exec.Command(hearthBin, "users", "passwd", "--data", data, "--user", bo)
	cmd.Stdin = strings.NewReader("bo's long password\n")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("users passwd: %v %s", err, out)
	}
	boc := newConsoleClient(t, srv.base)
	if st, _, _ := boc.do("POST", "/console/api/login", `{"name":"Bo","password":"wrong password!!"}`); st != 401 {
		t.Fatalf("a wrong password: %d", st)
	}
	if st, _, _ := boc.do("POST", "/console/api/login", `{"name":"Bo","password":"bo's long password"}`); st != 200 {
		t.Fatalf("Bo's login: %d", st)
	}
	if got := list(boc); len(got) != 0 {
		t.Fatalf("Bo sees Ada's conversations: %v", got)
	}
	if st, _, _ := boc.do("GET", "/console/api/conversations/"+conv.ID, ""); st != 404 {
		t.Fatalf("Bo reading Ada's conversation: %d", st)
	}

	// State changes need the CSRF token and this origin.
	if st, _, _ := ada.do("POST", "/console/api/logout", ""); st != 403 {
		t.Fatalf("logout without the CSRF token: %d", st)
	}
	if st, _, _ := ada.do("POST", "/console/api/logout", "", "X-CSRF-Token", ada.csrf, "Origin", "http://evil.example"); st != 403 {
		t.Fatalf("logout from another origin: %d", st)
	}
	if st, _, _ := ada.do("POST", "/console/api/logout", "", "X-CSRF-Token", ada.csrf); st != 204 {
		t.Fatalf("logout: %d", st)
	}
	if st, _, _ := ada.do("GET", "/console/api/conversations", ""); st != 401 {
		t.Fatalf("after logout: %d", st)
	}
}

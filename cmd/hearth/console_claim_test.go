package main

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestNewcomerClaimsTheConsole follows the Quick start: the address typed
// into a browser opens the console; a user made with `hearth users add`
// before the claim does not take the claim over: claiming as "Ada Owner"
// makes Ada Owner the owner, and signing in as Ada Owner then works.
func TestNewcomerClaimsTheConsole(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	srv := startServe(t, data)
	code := setupCode(t, srv)

	noFollow := &http.Client{Timeout: 30 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noFollow.Get(srv.base + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != "/console" {
		t.Fatalf("GET /: %d to %q, want 302 to /console", resp.StatusCode, resp.Header.Get("Location"))
	}
	resp, err = http.Get(srv.base + "/")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(page), "Claim this appliance") {
		t.Fatalf("/ followed does not lead to the console's claim form: %.200q", page)
	}

	earlier := mustCLI(t, "users", "add", "--data", data, "--name", "Ada Lovelace")
	claimer := newConsoleClient(t, srv.base)
	st, v, _ := claimer.do("POST", "/console/api/setup", `{"code":"`+code+`","name":"Ada Owner","password":"correct horse battery"}`)
	user, _ := v["user"].(map[string]any)
	if st != 200 || user["name"] != "Ada Owner" || user["id"] == earlier {
		t.Fatalf("claim as Ada Owner: %d %v (earlier user %s)", st, v, earlier)
	}
	later := newConsoleClient(t, srv.base)
	st, v, _ = later.do("POST", "/console/api/login", `{"name":"Ada Owner","password":"correct horse battery"}`)
	if signed, _ := v["user"].(map[string]any); st != 200 || signed["id"] != user["id"] {
		t.Fatalf("sign in as Ada Owner: %d %v", st, v)
	}
	if st, _, _ := newConsoleClient(t, srv.base).do("POST", "/console/api/login", `{"name":"Ada Lovelace","password":"correct horse battery"}`); st != 401 {
		t.Fatalf("the earlier user got the claimant's password: %d", st)
	}
	if list, _, _ := cli(t, "users", "list", "--data", data); !strings.Contains(list, "Ada Lovelace") || !strings.Contains(list, "Ada Owner") {
		t.Fatalf("users list after the claim:\n%s", list)
	}
}

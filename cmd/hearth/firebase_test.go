package main

import (
	"strings"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance/firebaseauth/firebasetest"
)

// TestFirebaseAccountOpensListen plays an Omi app rebuilt to point at the
// appliance: it sends its Firebase ID token and its Firebase uid in the
// query. Refused while the account is unbound (the reason names the fix),
// let in once the owner binds it with the CLI while the appliance serves,
// refused again once unbound.
func TestFirebaseAccountOpensListen(t *testing.T) {
	t.Parallel()
	firebase := firebasetest.New(t, "hearth-e2e-app")
	data := t.TempDir()
	srv := startServe(t, data, writeScript(t, `{"utterances":[{"text":"hello"}]}`),
		"HEARTH_FIREBASE_PROJECT_ID=hearth-e2e-app", "HEARTH_FIREBASE_CERTS_URL="+firebase.URL)
	uid := mustCLI(t, "users", "add", "--data", data, "--name", "Ada")
	const fuid = "Xq3bW9firebaseUID0001"
	token := firebase.Token(t, fuid)
	query := appQuery(fuid, "opus_fs320", 120, "")
	refused := func(what, reason string) {
		t.Helper()
		c := dialListen(t, srv.base, query, token)
		m := c.until(10*time.Second, "close or ready", func(m wsMsg) bool { return m.closeCode != 0 || event(m, "service_status") != nil })
		if m.closeCode != 1008 || m.closeText != reason {
			t.Fatalf("%s: %q close %d %q, want 1008 %q", what, m.text, m.closeCode, m.closeText, reason)
		}
	}
	const unbound = "Invalid token: Firebase account not bound (hearth users bind-firebase)"
	refused("unbound", unbound)
	// The log names the uid to bind (the line may trail the close frame).
	for deadline := time.Now().Add(5 * time.Second); !strings.Contains(srv.logs.String(), `"firebase_uid":"`+fuid+`"`); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the log does not name the uid to bind:\n%s", srv.logs)
		}
	}
	if strings.Contains(srv.logs.String(), token) {
		t.Fatalf("the token is in the log:\n%s", srv.logs)
	}

	mustCLI(t, "users", "bind-firebase", "--data", data, "--user", uid, "--firebase-uid", fuid)
	c := dialListen(t, srv.base, query, token)
	ready := event(c.until(10*time.Second, "ready", func(m wsMsg) bool {
		if m.closeCode != 0 {
			t.Fatalf("bound: close %d %q", m.closeCode, m.closeText)
		}
		return event(m, "service_status") != nil
	}), "service_status")
	if ready["status"] != "ready" {
		t.Fatalf("ready event %v", ready)
	}
	// The app calls REST with the same token: it is an ID token of the user.
	if code, body := srv.call(t, "GET", "/v3/speech-profile", token, ""); code != 200 {
		t.Fatalf("GET /v3/speech-profile with the Firebase token: %d %s", code, body)
	}
	if out := mustCLIOut(t, "users", "list", "--data", data); !strings.Contains(out, fuid) {
		t.Fatalf("users list does not show the binding:\n%s", out)
	}
	// An expired token asks the app to refresh it.
	expired := firebase.Sign(t, firebase.Claims(fuid, time.Now().Add(-2*time.Hour)))
	c = dialListen(t, srv.base, query, expired)
	if m := c.until(10*time.Second, "close", func(m wsMsg) bool { return m.closeCode != 0 }); m.closeCode != 4001 || m.closeText != "Token expired" {
		t.Fatalf("expired Firebase token: close %d %q", m.closeCode, m.closeText)
	}

	// A uid bound to one user cannot be bound to another without unbinding.
	other := mustCLI(t, "users", "add", "--data", data, "--name", "Grace")
	if _, stderr, code := cli(t, "users", "bind-firebase", "--data", data, "--user", other, "--firebase-uid", fuid); code != 2 || !strings.Contains(stderr, "unbind-firebase") {
		t.Fatalf("binding a bound uid to another user: exit %d %s", code, stderr)
	}
	if _, stderr, code := cli(t, "users", "bind-firebase", "--data", data, "--user", "nobody", "--firebase-uid", "x"); code != 2 || !strings.Contains(stderr, "no user") {
		t.Fatalf("binding to an unknown user: exit %d %s", code, stderr)
	}
	mustCLI(t, "users", "unbind-firebase", "--data", data, "--firebase-uid", fuid)
	refused("unbound again", unbound)
	if _, _, code := cli(t, "users", "unbind-firebase", "--data", data, "--firebase-uid", fuid); code != 2 {
		t.Fatalf("unbinding twice: exit %d", code)
	}
}

// TestListenRequireTokenIsDeprecated: the old flag is still accepted (a
// service installed with it keeps starting) and the log says it does
// nothing.
func TestListenRequireTokenIsDeprecated(t *testing.T) {
	t.Parallel()
	srv := startServe(t, t.TempDir(), "HEARTH_LISTEN_REQUIRE_TOKEN=false")
	if !strings.Contains(srv.logs.String(), "--listen-require-token") || !strings.Contains(srv.logs.String(), "deprecated") {
		t.Fatalf("no deprecation warning:\n%s", srv.logs)
	}
}

// mustCLIOut is mustCLI's whole standard output.
func mustCLIOut(t *testing.T, args ...string) string {
	t.Helper()
	out, errOut, code := cli(t, args...)
	if code != 0 {
		t.Fatalf("hearth %v: exit %d\nstdout: %s\nstderr: %s", args, code, out, errOut)
	}
	return out
}

package api_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// signInServer is the router on a real loopback socket, with the shipped
// rate limits on and the given trusted proxies.
func signInServer(t *testing.T, trusted string) (*env, *httptest.Server) {
	e := newEnv(t, func(c *appliance.Config) { c.RateLimitBoost = 1; c.TrustedProxies = trusted })
	ts := httptest.NewServer(e.srv)
	t.Cleanup(ts.Close)
	return e, ts
}

// attempt posts one sign-in, claiming to come from forged (when not
// empty), and returns the status and body.
func attempt(t *testing.T, ts *httptest.Server, path, contentType, body, forged string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", ts.URL+path, strings.NewReader(body))
	req.Header.Set("Content-Type", contentType)
	if forged != "" {
		req.Header.Set("X-Forwarded-For", forged)
		req.Header.Set("X-Real-IP", forged)
	}
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func consoleLogin(name string) string {
	return fmt.Sprintf(`{"name":%q,"password":"wrong password %s"}`, name, name)
}

// TestSignInLimitIgnoresForgedAddresses: rotating X-Forwarded-For and
// X-Real-IP from an untrusted peer does not buy fresh per-address budgets,
// on the console's sign-in nor on the consent page's.
func TestSignInLimitIgnoresForgedAddresses(t *testing.T) {
	t.Parallel()
	_, ts := signInServer(t, "")
	limited := 0
	for i := range 20 {
		st, _ := attempt(t, ts, "/console/api/login", "application/json", consoleLogin(fmt.Sprintf("guess%d", i)), fmt.Sprintf("10.0.%d.%d", i/200, i%200+1))
		if st == http.StatusTooManyRequests {
			limited++
		} else if st != http.StatusUnauthorized {
			t.Fatalf("attempt %d: %d", i, st)
		}
	}
	if limited != 10 {
		t.Fatalf("console: %d of 20 forged-address attempts refused with 429, want 10", limited)
	}

	_, ts = signInServer(t, "")
	refused := 0
	for i := range 20 {
		v := authParams()
		v.Set("decision", "approve")
		v.Set("name", fmt.Sprintf("guess%d", i))
		v.Set("password", "wrong")
		_, body := attempt(t, ts, "/oauth/authorize", "application/x-www-form-urlencoded", v.Encode(), fmt.Sprintf("10.1.0.%d", i+1))
		if strings.Contains(body, "Too many sign-in attempts") {
			refused++
		}
	}
	if refused != 10 {
		t.Fatalf("consent page: %d of 20 forged-address attempts refused, want 10", refused)
	}
}

// TestSignInLimitTrustsConfiguredProxy: behind a --trusted-proxies proxy
// each forwarded client has its own budget, and one client past it is
// refused.
func TestSignInLimitTrustsConfiguredProxy(t *testing.T) {
	t.Parallel()
	_, ts := signInServer(t, "127.0.0.1")
	for i := range 15 {
		if st, body := attempt(t, ts, "/console/api/login", "application/json", consoleLogin(fmt.Sprintf("guess%d", i)), fmt.Sprintf("192.0.2.%d", i+1)); st != http.StatusUnauthorized {
			t.Fatalf("forwarded client %d: %d %s", i, st, body)
		}
	}
	var st int
	for i := range 11 {
		st, _ = attempt(t, ts, "/console/api/login", "application/json", consoleLogin(fmt.Sprintf("other%d", i)), "198.51.100.7")
	}
	if st != http.StatusTooManyRequests {
		t.Fatalf("11th attempt from one forwarded client: %d, want 429", st)
	}
}

// TestSignInAccountBackoff: guesses at one account from ever-new addresses
// (here through a trusted proxy) are slowed per account: after a few wrong
// passwords the account answers 429 whatever the address, and the consent
// page says so too.
func TestSignInAccountBackoff(t *testing.T) {
	t.Parallel()
	e, ts := signInServer(t, "127.0.0.1")
	codes := []int{}
	for i := range 8 {
		st, _ := attempt(t, ts, "/console/api/login", "application/json", consoleLogin("Ada"), fmt.Sprintf("203.0.113.%d", i+1))
		codes = append(codes, st)
	}
	if codes[0] != http.StatusUnauthorized || codes[7] != http.StatusTooManyRequests {
		t.Fatalf("statuses of 8 guesses at one account from 8 addresses: %v", codes)
	}
	v := authParams()
	v.Set("decision", "approve")
	v.Set("name", "ada")
	v.Set("password", "wrong")
	if _, body := attempt(t, ts, "/oauth/authorize", "application/x-www-form-urlencoded", v.Encode(), "203.0.113.99"); !strings.Contains(body, "Too many wrong passwords") {
		t.Fatalf("consent page during the back-off: %.300s", body)
	}
	// The back-off ends: after the wait one more attempt reaches the check.
	e.clock.Add(16 * time.Minute) // past the longest back-off
	if st, _ := attempt(t, ts, "/console/api/login", "application/json", consoleLogin("Ada"), "203.0.113.100"); st != http.StatusUnauthorized {
		t.Fatalf("after the back-off: %d", st)
	}
}

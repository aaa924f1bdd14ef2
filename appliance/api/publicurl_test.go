package api_test

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/hearth-appliance/hearth/appliance/api"
)

// TestPublicURLTrustsOnlyWhatItShould: a Host header that does not name
// this machine, and forwarded headers from an untrusted peer, never decide
// the address that OAuth metadata and challenges send clients to.
func TestPublicURLTrustsOnlyWhatItShould(t *testing.T) {
	t.Parallel()
	plain, err := api.NewPublicURL("", "127.0.0.1:8080", "")
	if err != nil {
		t.Fatal(err)
	}
	proxied, err := api.NewPublicURL("", "0.0.0.0:8080", "10.9.0.0/16, 192.0.2.7")
	if err != nil {
		t.Fatal(err)
	}
	fixed, err := api.NewPublicURL("https://hearth.example.lan/", "0.0.0.0:8080", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		p      *api.PublicURL
		host   string
		remote string
		fwd    map[string]string
		want   string
	}{
		{"own loopback address", plain, "127.0.0.1:8080", "127.0.0.1:5000", nil, "http://127.0.0.1:8080"},
		{"localhost", plain, "localhost:8080", "127.0.0.1:5000", nil, "http://localhost:8080"},
		{"foreign host", plain, "evil.example", "127.0.0.1:5000", nil, "http://127.0.0.1:8080"},
		{"forwarded host from an untrusted peer", plain, "127.0.0.1:8080", "127.0.0.1:5000",
			map[string]string{"X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https"}, "http://127.0.0.1:8080"},
		{"forwarded own host from a trusted proxy", proxied, "127.0.0.1:8080", "192.0.2.7:4000",
			map[string]string{"X-Forwarded-Host": "localhost:443", "X-Forwarded-Proto": "https"}, "https://localhost:443"},
		{"forwarded foreign host from a trusted proxy", proxied, "127.0.0.1:8080", "10.9.3.4:4000",
			map[string]string{"X-Forwarded-Host": "evil.example"}, ""},
		{"configured public url", fixed, "evil.example", "127.0.0.1:5000", nil, "https://hearth.example.lan"},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.Host, r.RemoteAddr = tc.host, tc.remote
		for k, v := range tc.fwd {
			r.Header.Set(k, v)
		}
		got := tc.p.Base(r)
		if tc.want == "" {
			// An unspecified listen address falls back to a local address,
			// whichever this machine has; never to the foreign name.
			if got == "http://evil.example" || got == "https://evil.example" {
				t.Errorf("%s: %s", tc.name, got)
			}
			continue
		}
		if got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
	if _, err := api.NewPublicURL("ftp://x", "127.0.0.1:1", ""); err == nil {
		t.Error("ftp public url accepted")
	}
	if _, err := api.NewPublicURL("", "127.0.0.1:1", "not-an-ip"); err == nil {
		t.Error("bad trusted proxy accepted")
	}
}

func TestHostHeaderDoesNotSteerTheChallenge(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := httptest.NewRequest("POST", "/v1/mcp/sse", nil)
	r.Host = "evil.example"
	r.Header.Set("X-Forwarded-Host", "evil.example")
	rec := httptest.NewRecorder()
	e.srv.ServeHTTP(rec, r)
	if ch := rec.Header().Get("WWW-Authenticate"); rec.Code != 401 || ch == "" || containsFold(ch, "evil.example") {
		t.Fatalf("%d challenge %q", rec.Code, ch)
	}
	r = httptest.NewRequest("GET", "/.well-known/oauth-authorization-server", nil)
	r.Host = "evil.example"
	rec = httptest.NewRecorder()
	e.srv.ServeHTTP(rec, r)
	if containsFold(rec.Body.String(), "evil.example") {
		t.Fatalf("metadata names the request's Host: %s", rec.Body)
	}
}

func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}

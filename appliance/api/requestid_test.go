package api_test

import (
	"net/http/httptest"
	"regexp"
	"testing"
)

// Every response names its request: 32 hex digits, a new one per request,
// and a client's own id is passed through.
func TestRequestIDs(t *testing.T) {
	e := newEnv(t)
	hex32 := regexp.MustCompile(`^[0-9a-f]{32}$`)
	seen := map[string]bool{}
	for range 50 {
		rec := e.do("GET", "/healthz", "", "")
		id := rec.Header().Get("X-Request-Id")
		if !hex32.MatchString(id) {
			t.Fatalf("request id %q: want 32 hex digits", id)
		}
		if seen[id] {
			t.Fatalf("request id %q given twice", id)
		}
		seen[id] = true
	}
	req := httptest.NewRequest("GET", "/healthz", nil)
	req.Header.Set("X-Request-Id", "client-chosen-1")
	rec := httptest.NewRecorder()
	e.srv.ServeHTTP(rec, req)
	if got := rec.Header().Get("X-Request-Id"); got != "client-chosen-1" {
		t.Fatalf("client's request id: got %q", got)
	}
}

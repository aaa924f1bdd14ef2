package main

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// Until the store is ready only /healthz is answered; the other requests
// wait, then reach the handler, or get 503 when the store failed. Either
// asks for the store to be made ready.
func TestStoreGateHoldsAllButHealth(t *testing.T) {
	for _, tc := range []struct {
		name       string
		storeErr   error
		wantStatus int
		wantBody   string
	}{
		{"store ready", nil, http.StatusOK, "served /v1/conversations"},
		{"store failed", errors.New("disk gone"), http.StatusServiceUnavailable, "the store could not be opened; see the appliance's log\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gate := newStoreGate(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				io.WriteString(w, "served "+r.URL.Path)
			}))
			srv := httptest.NewServer(gate)
			defer srv.Close()
			get := func(path string) (int, string) {
				resp, err := http.Get(srv.URL + path)
				if err != nil {
					return 0, err.Error()
				}
				defer resp.Body.Close()
				b, _ := io.ReadAll(resp.Body)
				return resp.StatusCode, string(b)
			}

			asked := func() bool {
				select {
				case <-gate.asked:
					return true
				default:
					return false
				}
			}
			if asked() {
				t.Fatal("the store was asked for before any request")
			}
			type answer struct {
				status int
				body   string
			}
			held := make(chan answer, 1)
			go func() {
				status, body := get("/v1/conversations")
				held <- answer{status, body}
			}()
			// /healthz is answered while the other request is held.
			if status, body := get("/healthz"); status != http.StatusOK || body != "served /healthz" {
				t.Fatalf("/healthz before the store is ready: %d %q, want 200 from the handler", status, body)
			}
			if !asked() {
				t.Error("/healthz was answered, and the store was not asked for")
			}
			select {
			case a := <-held:
				t.Fatalf("a request was answered before the store was ready: %d %q", a.status, a.body)
			default:
			}
			gate.open(tc.storeErr)
			if a := <-held; a.status != tc.wantStatus || a.body != tc.wantBody {
				t.Errorf("held request: %d %q, want %d %q", a.status, a.body, tc.wantStatus, tc.wantBody)
			}
			if status, body := get("/v1/conversations"); status != tc.wantStatus || body != tc.wantBody {
				t.Errorf("request after the gate opened: %d %q, want %d %q", status, body, tc.wantStatus, tc.wantBody)
			}
		})
	}
}

// A request that arrives before /healthz asks for the store itself.
func TestStoreGateAskedByAWaitingRequest(t *testing.T) {
	gate := newStoreGate(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	srv := httptest.NewServer(gate)
	defer srv.Close()
	answered := make(chan error, 1)
	go func() {
		resp, err := http.Get(srv.URL + "/v1/dev/user/conversations")
		if err == nil {
			resp.Body.Close()
		}
		answered <- err
	}()
	<-gate.asked // a hang here fails the test by its timeout
	gate.open(nil)
	if err := <-answered; err != nil {
		t.Fatal(err)
	}
}

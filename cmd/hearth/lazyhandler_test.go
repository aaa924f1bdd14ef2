package main

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// A request that arrives before the handler is built is answered by it
// once it is; one that gives up first ends without an answer.
func TestLazyHandlerWaitsForBuild(t *testing.T) {
	lazy := newLazyHandler()
	srv := httptest.NewServer(lazy)
	defer srv.Close()

	// Given up before the build: the client's context ends the wait.
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
	if _, err := http.DefaultClient.Do(req); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("request before the build ended with %v, want the client's deadline", err)
	}

	answered := make(chan string, 1)
	go func() {
		resp, err := http.Get(srv.URL)
		if err != nil {
			answered <- err.Error()
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		answered <- string(b)
	}()
	lazy.build(func() http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "built") })
	})
	if got := <-answered; got != "built" {
		t.Fatalf("waiting request got %q, want the built handler's answer", got)
	}
}

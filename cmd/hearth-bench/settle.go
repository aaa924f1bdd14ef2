package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

// indexPoll is how often waitIndexed asks; it bounds the error of a
// measured catch-up time.
const indexPoll = 10 * time.Millisecond

// waitIndexed polls /healthz until the search index reports every item
// embedded, so that a scenario measures the steady state rather than
// competing with the embedding of what the previous scenario wrote, and so
// that a writing scenario's rate can include the embedding it caused.
func waitIndexed(ctx context.Context, client *http.Client, base string, limit time.Duration) (time.Duration, error) {
	start := time.Now()
	for {
		done, err := indexCaughtUp(ctx, client, base)
		if err != nil || done {
			return time.Since(start), err
		}
		if time.Since(start) > limit {
			return time.Since(start), fmt.Errorf("still embedding after %s", limit)
		}
		if err := sleepCtx(ctx, indexPoll); err != nil {
			return time.Since(start), err
		}
	}
}

func indexCaughtUp(ctx context.Context, client *http.Client, base string) (bool, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/healthz", nil)
	if err != nil {
		return false, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return false, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	if err != nil {
		return false, err
	}
	var h struct {
		Index *struct {
			Embedded float64 `json:"embedded"`
		} `json:"search_index"`
	}
	if err := json.Unmarshal(b, &h); err != nil {
		return false, fmt.Errorf("healthz: %w", err)
	}
	// A server without an index has nothing to wait for.
	return h.Index == nil || h.Index.Embedded >= 1, nil
}

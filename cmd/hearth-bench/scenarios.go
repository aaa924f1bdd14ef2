package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// allScenarios lists the scenarios in the order they run. Later ones may use
// what earlier ones left in sharedState (get reads the ids from-segments
// created). To add a scenario, write a func(ctx, *worker) error and add it
// here.
var allScenarios = []scenario{
	{name: "from-segments", run: runFromSegments, indexes: true},
	{name: "get", run: runGet, skipUnless: func(s *sharedState) string {
		if s.numIDs() == 0 {
			return "no conversation was created, nothing to get"
		}
		return ""
	}},
	{name: "mcp-search-memories", run: runMCPSearchMemories},
	{name: "mcp-get-conversations", run: runMCPGetConversations},
}

func scenarioNames() []string {
	names := make([]string, len(allScenarios))
	for i, s := range allScenarios {
		names[i] = s.name
	}
	return names
}

// selectScenarios returns the scenarios named in the comma-separated list,
// in their canonical order; an empty list selects all.
func selectScenarios(list string) ([]scenario, error) {
	if strings.TrimSpace(list) == "" {
		return allScenarios, nil
	}
	want := map[string]bool{}
	for _, n := range strings.Split(list, ",") {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		found := false
		for _, s := range allScenarios {
			if s.name == n {
				found = true
			}
		}
		if !found {
			return nil, fmt.Errorf("unknown scenario %q (known: %s)", n, strings.Join(scenarioNames(), ", "))
		}
		want[n] = true
	}
	var out []scenario
	for _, s := range allScenarios {
		if want[s.name] {
			out = append(out, s)
		}
	}
	return out, nil
}

const conversationsPath = "/v1/dev/user/conversations"

type createRequest struct {
	TranscriptSegments []segment `json:"transcript_segments"`
}

type createResponse struct {
	ID        string `json:"id"`
	Status    string `json:"status"`
	Discarded bool   `json:"discarded"`
}

// runFromSegments creates one conversation from a generated transcript and
// remembers its id for the get scenario.
func runFromSegments(ctx context.Context, w *worker) error {
	body, err := json.Marshal(createRequest{TranscriptSegments: genTranscript(w.rng, w.shared.segments)})
	if err != nil {
		return err
	}
	path := conversationsPath + "/from-segments"
	r, err := w.do(ctx, http.MethodPost, path, body)
	if err != nil {
		return err
	}
	if err := expect(http.MethodPost, path, r, http.StatusOK); err != nil {
		return err
	}
	var cr createResponse
	if err := json.Unmarshal(r.body, &cr); err != nil {
		return fmt.Errorf("POST %s: 200 with undecodable body: %v: %s", path, err, truncate(string(r.body), 300))
	}
	if cr.ID == "" {
		return fmt.Errorf("POST %s: 200 without an id: %s", path, truncate(string(r.body), 300))
	}
	w.shared.addID(cr.ID)
	return nil
}

var errNoIDs = errors.New("no created conversation ids to get")

// runGet reads back one randomly chosen conversation created earlier.
func runGet(ctx context.Context, w *worker) error {
	id := w.shared.randomID(w.rng)
	if id == "" {
		return errNoIDs
	}
	path := conversationsPath + "/" + url.PathEscape(id)
	r, err := w.do(ctx, http.MethodGet, path, nil)
	if err != nil {
		return err
	}
	if err := expect(http.MethodGet, path, r, http.StatusOK); err != nil {
		return err
	}
	var c struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(r.body, &c); err != nil {
		return fmt.Errorf("GET %s: 200 with undecodable body: %v: %s", path, err, truncate(string(r.body), 300))
	}
	if c.ID != id {
		return fmt.Errorf("GET %s: 200 for id %q", path, c.ID)
	}
	return nil
}

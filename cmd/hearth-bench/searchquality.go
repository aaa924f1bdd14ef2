package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"
)

// The transcript-search scenario (-scenarios transcript-search): the
// labelled set of searchset.go created through from-segments among
// -search-distractors generated conversations, then every query through
// the console's search (GET /v1/search, an ID token) and the REST twin of
// the MCP tool search_conversations (GET /v1/mcp/conversations/search, an
// MCP key), scored at 5.

type searchOptions struct {
	baseURL     string
	devKey      string
	mcpKey      string
	token       string
	distractors int
	concurrency int
	client      *http.Client
}

// searchSurface is one HTTP search and its score.
type searchSurface struct {
	name   string
	byKind map[string]searchScore // "" is every query
	lat    []time.Duration
}

type searchResult struct {
	opts     searchOptions
	created  time.Duration
	indexed  time.Duration
	surfaces []searchSurface
}

func runTranscriptSearch(ctx context.Context, o searchOptions, logf func(string, ...any)) (searchResult, error) {
	res := searchResult{opts: o}
	corpus := searchCorpus(1)
	// The labelled conversations are spread evenly among the distractors,
	// so that some are among the oldest and some among the newest.
	type job struct {
		labelled int // -1 for a distractor
		segs     []segment
	}
	total := len(corpus) + o.distractors
	at := map[int]int{}
	for k := range corpus {
		at[k*total/len(corpus)] = k
	}
	jobs := make([]job, 0, total)
	r := rand.New(rand.NewPCG(29, 2))
	for i := range total {
		if k, ok := at[i]; ok {
			jobs = append(jobs, job{labelled: k, segs: corpus[k].segments})
		} else {
			jobs = append(jobs, job{labelled: -1, segs: distractorTranscript(r, 12)})
		}
	}
	ids := make(map[string]string, len(corpus))
	var mu sync.Mutex
	var firstErr error
	next := make(chan job)
	var wg sync.WaitGroup
	t0 := time.Now()
	for range o.concurrency {
		wg.Go(func() {
			for j := range next {
				id, err := createConversation(ctx, o, j.segs)
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				if err == nil && j.labelled >= 0 {
					ids[corpus[j.labelled].name] = id
				}
				mu.Unlock()
			}
		})
	}
	for _, j := range jobs {
		if ctx.Err() != nil {
			break
		}
		next <- j
	}
	close(next)
	wg.Wait()
	if firstErr != nil {
		return res, fmt.Errorf("create the labelled conversations: %w", firstErr)
	}
	if err := ctx.Err(); err != nil {
		return res, err
	}
	res.created = time.Since(t0)
	logf("transcript search: %d labelled and %d other conversations created in %s", len(corpus), o.distractors, fmtDur(res.created))
	var err error
	if res.indexed, err = waitIndexed(ctx, o.client, o.baseURL, 10*time.Minute); err != nil {
		return res, err
	}

	for _, s := range []struct {
		name string
		find func(string) ([]string, error)
	}{
		{"console GET /v1/search", func(q string) ([]string, error) {
			var out struct{ Results []struct{ ID string } }
			err := getJSON(ctx, o, "/v1/search?"+url.Values{"kind": {"conversation"}, "limit": {"5"}, "q": {q}}.Encode(), o.token, &out)
			found := make([]string, len(out.Results))
			for i, h := range out.Results {
				found[i] = h.ID
			}
			return found, err
		}},
		{"MCP twin GET /v1/mcp/conversations/search", func(q string) ([]string, error) {
			var out []struct{ ID string }
			err := getJSON(ctx, o, "/v1/mcp/conversations/search?"+url.Values{"limit": {"5"}, "query": {q}}.Encode(), o.mcpKey, &out)
			found := make([]string, len(out))
			for i, h := range out {
				found[i] = h.ID
			}
			return found, err
		}},
	} {
		surf := searchSurface{name: s.name, byKind: map[string]searchScore{}}
		timedFind := func(q string) ([]string, error) {
			t := time.Now()
			found, err := s.find(q)
			surf.lat = append(surf.lat, time.Since(t))
			return found, err
		}
		for _, kind := range []string{"", kindWord, kindName, kindPhrase, kindParaphrase} {
			sc, err := scoreSearch(queriesOfKind(kind), ids, timedFind)
			if err != nil {
				return res, fmt.Errorf("%s: %w", s.name, err)
			}
			surf.byKind[kind] = sc
		}
		all := surf.byKind[""]
		logf("transcript search, %s: precision@5 %.3f, recall@5 %.3f, MRR %.3f over %d queries", s.name, all.precision, all.recall, all.mrr, all.queries)
		res.surfaces = append(res.surfaces, surf)
	}
	return res, nil
}

func createConversation(ctx context.Context, o searchOptions, segs []segment) (string, error) {
	body, err := json.Marshal(createRequest{TranscriptSegments: segs})
	if err != nil {
		return "", err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, o.baseURL+conversationsPath+"/from-segments", bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Authorization", "Bearer "+o.devKey)
	req.Header.Set("Content-Type", "application/json")
	var cr createResponse
	if err := doJSON(o.client, req, &cr); err != nil {
		return "", err
	}
	if cr.ID == "" {
		return "", fmt.Errorf("POST from-segments: no id")
	}
	return cr.ID, nil
}

func getJSON(ctx context.Context, o searchOptions, path, credential string, into any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, o.baseURL+path, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+credential)
	req.Header.Set("Accept", "application/json")
	return doJSON(o.client, req, into)
}

func doJSON(client *http.Client, req *http.Request, into any) error {
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s %s: %d %s", req.Method, req.URL.Path, resp.StatusCode, truncate(string(b), 300))
	}
	if err := json.Unmarshal(b, into); err != nil {
		return fmt.Errorf("%s %s: %v in %s", req.Method, req.URL.Path, err, truncate(string(b), 300))
	}
	return nil
}

func (r searchResult) markdown() string {
	var b strings.Builder
	corpus := searchCorpus(1)
	fmt.Fprintf(&b, "\n## Transcript search quality (-scenarios transcript-search)\n\n%d labelled conversations (%d topics) among %d generated ones, 12 segments each, created through from-segments in %s; indexed %s after the last.\n",
		len(corpus), len(searchTopics), r.opts.distractors, fmtDur(r.created), fmtDur(r.indexed))
	fmt.Fprintf(&b, "%d queries, each labelled with the conversations it should find; scored on the first 5 results. Precision: relevant among those returned (at most 5); recall: relevant found over min(relevant, 5); MRR: 1/rank of the first relevant.\n\n", len(searchQueries))
	b.WriteString("| surface | queries | precision@5 | recall@5 | MRR | strict P@5 (÷5) | latency p50 / p99 |\n|---|---|---:|---:|---:|---:|---:|\n")
	for _, s := range r.surfaces {
		lat := slices.Clone(s.lat)
		slices.Sort(lat)
		pct := func(p int) time.Duration {
			if len(lat) == 0 {
				return 0
			}
			return lat[min(len(lat)-1, len(lat)*p/100)]
		}
		for _, kind := range []string{"", kindWord, kindName, kindPhrase, kindParaphrase} {
			sc := s.byKind[kind]
			label, latency := kind+"s", ""
			if kind == "" {
				label, latency = "**all**", fmtDur(pct(50))+" / "+fmtDur(pct(99))
			}
			fmt.Fprintf(&b, "| %s | %s (%d) | %.3f | %.3f | %.3f | %.3f | %s |\n", s.name, label, sc.queries, sc.precision, sc.recall, sc.mrr, sc.strictP, latency)
		}
	}
	if len(r.surfaces) > 0 {
		if misses := r.surfaces[len(r.surfaces)-1].byKind[""].misses; len(misses) > 0 {
			fmt.Fprintf(&b, "\nMissed by the MCP twin (%d): %s.\n", len(misses), strings.Join(misses, "; "))
		}
	}
	return b.String()
}

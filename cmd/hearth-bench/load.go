package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
)

// scenario is one benchmark. run performs one operation (normally exactly
// one HTTP request through w.do) and returns an error when the operation
// failed; the load loop calls it back to back in every worker until the
// scenario's duration is over. Adding a scenario (search, MCP, ...) means
// writing one such function and listing it in allScenarios.
type scenario struct {
	name string
	run  func(ctx context.Context, w *worker) error
	// skipUnless, when set, is asked before the scenario runs; a non-empty
	// answer is the reason to skip it (e.g. nothing to read yet).
	skipUnless func(s *sharedState) string
	// indexes marks a scenario whose writes the server embeds in the
	// background: the driver then waits for the search index to catch up
	// and reports a rate that includes that work.
	indexes bool
}

// worker is the per-goroutine state handed to scenario functions.
type worker struct {
	id      int
	client  *http.Client
	baseURL string // http://127.0.0.1:PORT
	key     string // developer API key
	mcpKey  string // MCP key, for the MCP scenarios
	rng     *rand.Rand
	// mcpSession is this worker's MCP session, opened on first use.
	mcpSession string
	shared     *sharedState

	latencies []time.Duration // one per completed HTTP request
	requests  int             // HTTP requests attempted
}

// sharedState is what scenarios share across workers and across scenarios,
// e.g. the ids created by from-segments that get reads back.
type sharedState struct {
	segments int

	mu  sync.Mutex
	ids []string
}

func newSharedState(segments int) *sharedState { return &sharedState{segments: segments} }

func (s *sharedState) addID(id string) {
	s.mu.Lock()
	s.ids = append(s.ids, id)
	s.mu.Unlock()
}

// randomID returns a uniformly chosen created id, or "" when there is none.
func (s *sharedState) randomID(r *rand.Rand) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.ids) == 0 {
		return ""
	}
	return s.ids[r.IntN(len(s.ids))]
}

func (s *sharedState) numIDs() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.ids)
}

// maxBody bounds how much of a response the driver reads.
const maxBody = 8 << 20

// response is a fully read HTTP response.
type response struct {
	status int
	body   []byte
}

// statusError is returned by scenarios for an unexpected HTTP status; its
// message carries (the start of) the body.
type statusError struct {
	method, path string
	status       int
	body         []byte
}

func (e *statusError) Error() string {
	return fmt.Sprintf("%s %s: HTTP %d: %s", e.method, e.path, e.status, truncate(strings.TrimSpace(string(e.body)), 500))
}

// do sends one request to the server (path is relative to baseURL), with the
// developer key as bearer token, reads the whole body and records the
// latency (time to last body byte). A transport error is returned as is; any
// HTTP status is returned in the response for the scenario to judge.
func (w *worker) do(ctx context.Context, method, path string, body []byte) (response, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, w.baseURL+path, rd)
	if err != nil {
		return response{}, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	if w.key != "" {
		req.Header.Set("Authorization", "Bearer "+w.key)
	}
	t0 := time.Now()
	resp, err := w.client.Do(req)
	if err == nil {
		var b []byte
		b, err = io.ReadAll(io.LimitReader(resp.Body, maxBody))
		_, _ = io.Copy(io.Discard, resp.Body) // let the connection be reused
		resp.Body.Close()
		if err == nil {
			w.latencies = append(w.latencies, time.Since(t0))
			w.requests++
			return response{status: resp.StatusCode, body: b}, nil
		}
	}
	if ctx.Err() == nil {
		w.requests++ // a failed attempt still counts as a request (and its error as an error)
	}
	return response{}, err
}

// expect turns a response with another status than want into a statusError.
func expect(method, path string, r response, want int) error {
	if r.status != want {
		return &statusError{method: method, path: path, status: r.status, body: r.body}
	}
	return nil
}

// loadOptions configures one scenario run.
type loadOptions struct {
	concurrency int
	duration    time.Duration
	client      *http.Client
	baseURL     string
	key         string
	mcpKey      string
	shared      *sharedState
	errLog      io.Writer // first error messages are written here as they happen; may be nil
	maxSamples  int       // error messages kept per scenario; 0 means 5
	procs       int       // GOMAXPROCS while the scenario runs; 0 leaves it
}

// result is the outcome of one scenario.
type result struct {
	name         string
	requests     int // HTTP requests sent (not counting ones aborted by Ctrl-C)
	operations   int // calls of scenario.run
	errors       int // calls of scenario.run that returned an error
	elapsed      time.Duration
	latencies    []time.Duration // sorted
	errorSamples []string
	skipped      string // reason, when the scenario did not run
	// indexWait is how long the search index took to catch up after the
	// scenario ended (scenario.indexes); indexErr says why it did not.
	indexWait time.Duration
	indexErr  string
}

// indexedRate is successful operations over the scenario's wall time plus
// the time the index took to catch up: the rate the server sustains when
// it must also embed everything written.
func (r result) indexedRate() float64 {
	d := r.elapsed + r.indexWait
	if d <= 0 {
		return 0
	}
	return float64(r.operations-r.errors) / d.Seconds()
}

func (r result) rate() float64 {
	if r.elapsed <= 0 {
		return 0
	}
	return float64(r.requests) / r.elapsed.Seconds()
}

func (r result) percentile(p float64) time.Duration { return percentile(r.latencies, p) }

// runScenario runs sc with opts.concurrency workers. Each worker calls
// sc.run back to back and starts no new operation once opts.duration has
// passed; operations in flight at that moment finish (bounded by the HTTP
// client timeout) and count. Cancelling ctx (Ctrl-C) aborts in-flight
// requests; failures caused by that are not counted as errors.
func runScenario(ctx context.Context, sc scenario, opts loadOptions) result {
	if opts.maxSamples == 0 {
		opts.maxSamples = 5
	}
	if opts.procs > 0 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(opts.procs))
	}
	res := result{name: sc.name}
	var (
		mu      sync.Mutex
		workers = make([]*worker, opts.concurrency)
		wg      sync.WaitGroup
	)
	start := time.Now()
	deadline := start.Add(opts.duration)
	for i := range workers {
		w := &worker{
			id:      i,
			client:  opts.client,
			baseURL: opts.baseURL,
			key:     opts.key,
			mcpKey:  opts.mcpKey,
			rng:     rand.New(rand.NewPCG(uint64(start.UnixNano()), uint64(i)+1)),
			shared:  opts.shared,
		}
		workers[i] = w
		wg.Go(func() {
			for ctx.Err() == nil && time.Now().Before(deadline) {
				err := sc.run(ctx, w)
				if err != nil && ctx.Err() != nil && errors.Is(err, context.Canceled) {
					return // interrupted, not a server error
				}
				mu.Lock()
				res.operations++
				if err != nil {
					res.errors++
					if len(res.errorSamples) < opts.maxSamples {
						res.errorSamples = append(res.errorSamples, err.Error())
						if opts.errLog != nil {
							fmt.Fprintf(opts.errLog, "hearth-bench: %s error #%d: %v\n", sc.name, res.errors, err)
						}
					}
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	res.elapsed = time.Since(start)
	for _, w := range workers {
		res.requests += w.requests
		res.latencies = append(res.latencies, w.latencies...)
	}
	slices.Sort(res.latencies)
	return res
}

// percentile returns the p-th percentile (0-100) of sorted by the
// nearest-rank method: the smallest value such that at least p percent of
// the values are <= it. It returns 0 for no values.
func percentile(sorted []time.Duration, p float64) time.Duration {
	n := len(sorted)
	if n == 0 {
		return 0
	}
	// The epsilon keeps float noise (99.9/100*1000 = 999.0000000000001)
	// from pushing the rank one up.
	rank := int(math.Ceil(p/100*float64(n) - 1e-9))
	rank = max(1, min(rank, n))
	return sorted[rank-1]
}

// newHTTPClient returns a keep-alive client for loopback load: enough idle
// connections per host for every worker, no proxy, and timeouts everywhere.
func newHTTPClient(concurrency int, timeout time.Duration) *http.Client {
	return &http.Client{
		Timeout: timeout,
		Transport: &http.Transport{
			Proxy: nil,
			DialContext: (&net.Dialer{
				Timeout:   5 * time.Second,
				KeepAlive: 30 * time.Second,
			}).DialContext,
			MaxIdleConns:          concurrency * 2,
			MaxIdleConnsPerHost:   concurrency * 2,
			IdleConnTimeout:       90 * time.Second,
			ResponseHeaderTimeout: timeout,
			ExpectContinueTimeout: time.Second,
			DisableCompression:    true,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

func drain(resp *http.Response) {
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxBody))
	resp.Body.Close()
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

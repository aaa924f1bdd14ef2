package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// getScenario does one GET /x and wants 200.
var getScenario = scenario{name: "t", run: func(ctx context.Context, w *worker) error {
	r, err := w.do(ctx, http.MethodGet, "/x", nil)
	if err != nil {
		return err
	}
	return expect(http.MethodGet, "/x", r, http.StatusOK)
}}

func TestRunScenarioCountsRequestsAndErrors(t *testing.T) {
	var total, failed atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n := total.Add(1); n%3 == 0 {
			failed.Add(1)
			http.Error(w, `{"detail":"boom `+fmt.Sprint(n)+`"}`, http.StatusInternalServerError)
			return
		}
		time.Sleep(time.Millisecond)
		fmt.Fprint(w, `{"ok":true}`)
	}))
	defer srv.Close()

	const dur = 300 * time.Millisecond
	var errLog strings.Builder
	res := runScenario(context.Background(), getScenario, loadOptions{
		concurrency: 4,
		duration:    dur,
		client:      newHTTPClient(4, 10*time.Second),
		baseURL:     srv.URL,
		shared:      newSharedState(1),
		errLog:      &errLog,
		maxSamples:  3,
	})
	if res.requests == 0 {
		t.Fatal("no requests")
	}
	if int64(res.requests) != total.Load() {
		t.Errorf("requests = %d, server saw %d", res.requests, total.Load())
	}
	if int64(res.errors) != failed.Load() {
		t.Errorf("errors = %d, server failed %d", res.errors, failed.Load())
	}
	if res.operations != res.requests {
		t.Errorf("operations %d != requests %d", res.operations, res.requests)
	}
	if len(res.latencies) != res.requests {
		t.Errorf("%d latencies for %d requests", len(res.latencies), res.requests)
	}
	for i := 1; i < len(res.latencies); i++ {
		if res.latencies[i] < res.latencies[i-1] {
			t.Fatal("latencies not sorted")
		}
	}
	if len(res.errorSamples) != min(3, res.errors) {
		t.Errorf("%d error samples for %d errors", len(res.errorSamples), res.errors)
	}
	if res.errors > 0 && (!strings.Contains(res.errorSamples[0], "HTTP 500") || !strings.Contains(res.errorSamples[0], "boom")) {
		t.Errorf("error sample lacks status/body: %q", res.errorSamples[0])
	}
	if strings.Count(errLog.String(), "\n") != len(res.errorSamples) {
		t.Errorf("error log: %q", errLog.String())
	}
	if res.elapsed < dur || res.elapsed > dur+5*time.Second {
		t.Errorf("elapsed %v for duration %v", res.elapsed, dur)
	}
	if res.rate() <= 0 {
		t.Errorf("rate %v", res.rate())
	}
}

func TestRunScenarioRespectsDuration(t *testing.T) {
	const (
		dur     = 250 * time.Millisecond
		workers = 3
		service = 20 * time.Millisecond
	)
	var (
		mu       sync.Mutex
		arrivals []time.Time
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		arrivals = append(arrivals, time.Now())
		mu.Unlock()
		time.Sleep(service)
	}))
	defer srv.Close()

	start := time.Now()
	res := runScenario(context.Background(), getScenario, loadOptions{
		concurrency: workers,
		duration:    dur,
		client:      newHTTPClient(workers, 10*time.Second),
		baseURL:     srv.URL,
		shared:      newSharedState(1),
	})
	took := time.Since(start)
	if res.errors != 0 {
		t.Errorf("errors: %v", res.errorSamples)
	}
	// Each request takes at least `service`, so no worker can do more than
	// dur/service+1 of them however fast the machine is.
	if maxReq := workers * (int(dur/service) + 1); res.requests > maxReq {
		t.Errorf("%d requests, at most %d possible", res.requests, maxReq)
	}
	if res.requests < workers {
		t.Errorf("only %d requests", res.requests)
	}
	if took < dur || took > dur+5*time.Second {
		t.Errorf("runScenario took %v for duration %v", took, dur)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, a := range arrivals {
		if a.Sub(start) > dur+2*time.Second {
			t.Errorf("a request arrived %v after start, duration %v", a.Sub(start), dur)
		}
	}
	for _, l := range res.latencies {
		if l < service {
			t.Errorf("latency %v below the server's service time %v", l, service)
		}
	}
}

func TestRunScenarioTransportErrors(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close() // no response at all
		}
	}))
	defer srv.Close()
	res := runScenario(context.Background(), getScenario, loadOptions{
		concurrency: 2,
		duration:    100 * time.Millisecond,
		client:      newHTTPClient(2, 5*time.Second),
		baseURL:     srv.URL,
		shared:      newSharedState(1),
	})
	if res.requests == 0 || res.errors != res.requests || len(res.latencies) != 0 {
		t.Errorf("requests %d errors %d latencies %d: every request should be a counted error", res.requests, res.errors, len(res.latencies))
	}
}

func TestRunScenarioCancel(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	}))
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	res := runScenario(ctx, getScenario, loadOptions{
		concurrency: 4,
		duration:    time.Minute,
		client:      newHTTPClient(4, 30*time.Second),
		baseURL:     srv.URL,
		shared:      newSharedState(1),
	})
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("cancel took %v", took)
	}
	if res.errors != 0 || res.requests != 0 {
		t.Errorf("aborted requests were counted: requests %d errors %d %v", res.requests, res.errors, res.errorSamples)
	}
}

// fakeAPI is a minimal in-process stand-in for the developer conversation API.
type fakeAPI struct {
	key string

	mu        sync.Mutex
	convs     map[string]createRequest
	gets      int
	unauth    int
	memories  int
	toolCalls int
}

const fakeMCPKey = "hearth_mcp_00000000000000000000000000000000"

func (f *fakeAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == mcpPath {
		f.serveMCP(w, r)
		return
	}
	if r.Header.Get("Authorization") != "Bearer "+f.key {
		f.mu.Lock()
		f.unauth++
		f.mu.Unlock()
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprint(w, `{"detail":"invalid api key"}`)
		return
	}
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/v1/dev/user/conversations/from-segments":
		var req createRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.TranscriptSegments) == 0 || len(req.TranscriptSegments) > 500 {
			w.WriteHeader(http.StatusUnprocessableEntity)
			fmt.Fprint(w, `{"detail":[{"loc":["body"],"msg":"bad","type":"value_error"}]}`)
			return
		}
		f.mu.Lock()
		id := fmt.Sprintf("conv-%d", len(f.convs)+1)
		f.convs[id] = req
		f.mu.Unlock()
		fmt.Fprintf(w, `{"id":%q,"status":"completed","discarded":false}`, id)
	case r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/v1/dev/user/conversations/"):
		id := strings.TrimPrefix(r.URL.Path, "/v1/dev/user/conversations/")
		f.mu.Lock()
		_, ok := f.convs[id]
		f.gets++
		f.mu.Unlock()
		if !ok {
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprint(w, `{"detail":"not found"}`)
			return
		}
		fmt.Fprintf(w, `{"id":%q,"structured":{"title":"t"}}`, id)
	case r.Method == http.MethodPost && r.URL.Path == "/v1/dev/user/memories/batch":
		var req struct{ Memories []map[string]string }
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Memories) == 0 || len(req.Memories) > 25 {
			w.WriteHeader(http.StatusUnprocessableEntity)
			return
		}
		f.mu.Lock()
		f.memories += len(req.Memories)
		f.mu.Unlock()
		fmt.Fprintf(w, `{"created_count":%d}`, len(req.Memories))
	default:
		http.NotFound(w, r)
	}
}

// serveMCP answers the JSON-RPC the MCP scenarios send, like the real
// transport: a session from initialize, 202 for notifications, tool results.
func (f *fakeAPI) serveMCP(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("Authorization") != "Bearer "+fakeMCPKey {
		f.mu.Lock()
		f.unauth++
		f.mu.Unlock()
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	var msg struct {
		ID     *int   `json:"id"`
		Method string `json:"method"`
	}
	if err := json.NewDecoder(r.Body).Decode(&msg); err != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	switch {
	case msg.Method == "initialize":
		w.Header().Set("Mcp-Session-Id", "s-1")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%d,"result":{"protocolVersion":"2025-03-26"}}`, *msg.ID)
	case r.Header.Get("Mcp-Session-Id") != "s-1":
		w.WriteHeader(http.StatusNotFound)
	case msg.ID == nil:
		w.WriteHeader(http.StatusAccepted)
	case msg.Method == "tools/call":
		f.mu.Lock()
		f.toolCalls++
		f.mu.Unlock()
		fmt.Fprintf(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":%d,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"{}\"}]}}\n\n", *msg.ID)
	default:
		w.WriteHeader(http.StatusBadRequest)
	}
}

func TestScenariosAgainstFakeAPI(t *testing.T) {
	api := &fakeAPI{key: "hk_dev_test", convs: map[string]createRequest{}}
	srv := httptest.NewServer(api)
	defer srv.Close()
	shared := newSharedState(12)
	opts := loadOptions{
		concurrency: 4,
		duration:    150 * time.Millisecond,
		client:      newHTTPClient(4, 5*time.Second),
		baseURL:     srv.URL,
		key:         api.key,
		mcpKey:      fakeMCPKey,
		shared:      shared,
	}
	scens, err := selectScenarios("")
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range scens {
		if sc.skipUnless != nil {
			if why := sc.skipUnless(shared); why != "" {
				t.Fatalf("%s skipped: %s", sc.name, why)
			}
		}
		res := runScenario(context.Background(), sc, opts)
		if res.requests == 0 || res.errors != 0 {
			t.Errorf("%s: requests %d errors %d %v", sc.name, res.requests, res.errors, res.errorSamples)
		}
		if sc.name == "from-segments" && shared.numIDs() != res.requests {
			t.Errorf("from-segments: %d ids for %d requests", shared.numIDs(), res.requests)
		}
		if sc.name == "get" && api.gets != res.requests {
			t.Errorf("get: server saw %d, driver counted %d", api.gets, res.requests)
		}
	}
	if api.unauth != 0 {
		t.Errorf("%d unauthenticated requests", api.unauth)
	}
	for id, c := range api.convs {
		if len(c.TranscriptSegments) != 12 {
			t.Fatalf("%s has %d segments", id, len(c.TranscriptSegments))
		}
	}

	// A wrong key makes every operation an error, with the body in the sample.
	opts.key = "wrong"
	res := runScenario(context.Background(), allScenarios[0], opts)
	if res.requests == 0 || res.errors != res.requests || !strings.Contains(res.errorSamples[0], "HTTP 401") || !strings.Contains(res.errorSamples[0], "invalid api key") {
		t.Errorf("wrong key: requests %d errors %d samples %q", res.requests, res.errors, res.errorSamples)
	}

	// get without ids is skipped up front.
	if why := allScenarios[1].skipUnless(newSharedState(1)); why == "" {
		t.Error("get should be skipped without ids")
	}
}

// TestRunScenario_DriverProcs: the workers run on the processors asked for,
// and the driver gets its own back afterwards (the waits and the report
// between scenarios are not measured).
func TestRunScenario_DriverProcs(t *testing.T) {
	before := runtime.GOMAXPROCS(0)
	var seen atomic.Int64
	sc := scenario{name: "procs", run: func(ctx context.Context, w *worker) error {
		seen.Store(int64(runtime.GOMAXPROCS(0)))
		time.Sleep(5 * time.Millisecond)
		return nil
	}}
	res := runScenario(context.Background(), sc, loadOptions{concurrency: 2, duration: 50 * time.Millisecond, shared: newSharedState(1), procs: 1})
	if res.operations == 0 || seen.Load() != 1 {
		t.Errorf("%d operations, GOMAXPROCS %d while running; want some, at 1", res.operations, seen.Load())
	}
	if got := runtime.GOMAXPROCS(0); got != before {
		t.Errorf("GOMAXPROCS after the scenario = %d, want %d as before", got, before)
	}
	runScenario(context.Background(), sc, loadOptions{concurrency: 1, duration: 20 * time.Millisecond, shared: newSharedState(1)})
	if seen.Load() != int64(before) {
		t.Errorf("procs 0 ran the workers on %d processors, want all %d", seen.Load(), before)
	}
}

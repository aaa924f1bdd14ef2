package api_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/api"
	"github.com/hearth-appliance/hearth/appliance/authn"
	"github.com/hearth-appliance/hearth/appliance/console"
	"github.com/hearth-appliance/hearth/appliance/conversation"
	"github.com/hearth-appliance/hearth/appliance/events"
	"github.com/hearth-appliance/hearth/appliance/idtoken"
	"github.com/hearth-appliance/hearth/appliance/mcp"
	"github.com/hearth-appliance/hearth/appliance/pipeline"
	"github.com/hearth-appliance/hearth/appliance/pipeline/embed"
	"github.com/hearth-appliance/hearth/appliance/records"
	"github.com/hearth-appliance/hearth/appliance/search"
	"github.com/hearth-appliance/hearth/store"
	"github.com/hearth-appliance/hearth/web"
)

// env is one appliance under test: a real SQLite file, the real pipeline,
// the real router, and a set of credentials.
type env struct {
	t      testing.TB
	db     *store.DB
	srv    *api.Server
	signer *idtoken.Signer
	clock  *clock
	auth   *countingAuth
	// events carries what records publishes (records_surfaces_test).
	events *events.Broker

	user, other string // user ids
	// Keys of env.user unless named otherwise.
	devRW, devRO, devRevoked, mcp, otherRW string
	devAll                                 string // every scope
	token                                  string // ID token of env.user
}

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

// countingAuth counts credential checks, to show each request makes one.
type countingAuth struct {
	*authn.Authenticator
	calls atomic.Int64
}

func (a *countingAuth) Authenticate(ctx context.Context, cred string) (appliance.Principal, error) {
	a.calls.Add(1)
	return a.Authenticator.Authenticate(ctx, cred)
}

type envOption func(*appliance.Config)

func newEnv(tb testing.TB, opts ...envOption) *env {
	tb.Helper()
	return newEnvDeps(tb, nil, opts...)
}

// newEnvDeps is newEnv with deps adding to what the server is given (a
// transcriber, say).
func newEnvDeps(tb testing.TB, deps func(*api.Deps), opts ...envOption) *env {
	tb.Helper()
	ctx := context.Background()
	dir := tb.TempDir()
	db, err := store.Open(ctx, dir)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	signer, err := idtoken.LoadOrCreate(dir)
	if err != nil {
		tb.Fatal(err)
	}
	cfg := appliance.DefaultConfig()
	cfg.RateLimitBoost = 0
	for _, o := range opts {
		o(&cfg)
	}
	clk := &clock{t: time.Now().UTC()}
	auth := authn.New(db, signer, nil, clk.Now)
	counted := &countingAuth{Authenticator: auth}
	searcher := search.NewSearcher(db, embed.NewBuiltin(0), nil)
	broker := events.NewBroker(64)
	tb.Cleanup(broker.Close)
	assistants := records.New(records.Deps{Store: db, Search: searcher, Events: broker, Now: clk.Now})
	public, err := api.NewPublicURL(cfg.PublicURL, "127.0.0.1:8080", cfg.TrustedProxies)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(auth.Close)
	d := api.Deps{
		Config: cfg, Store: db, Auth: counted, Console: web.FS(), Templates: web.Templates(), Now: clk.Now,
		Conversations: conversation.New(conversation.Deps{Store: db, Now: clk.Now,
			Processor: pipeline.New(pipeline.NewBuiltin(), slog.New(slog.DiscardHandler))}),
		Searcher: searcher,
		Records:  assistants,
		MCP: mcp.New(mcp.Deps{Records: assistants, Verify: api.MCPTokenInfo,
			ResourceMetadataURL: public.MCPResourceMetadata, SameOrigin: public.SameOrigin}),
		PublicURL:   public,
		ConsoleAuth: &console.Service{Store: db, Now: clk.Now},
	}
	if deps != nil {
		deps(&d)
	}
	srv, err := api.New(d)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(srv.Close)
	e := &env{t: tb, db: db, srv: srv, signer: signer, clock: clk, auth: counted, events: broker}
	e.user = e.addUser("Ada Lovelace")
	e.other = e.addUser("Charles Babbage")
	e.devRW = e.addKey(e.user, appliance.KeyKindDev, appliance.ScopeConversationsRead, appliance.ScopeConversationsWrite)
	e.devRO = e.addKey(e.user, appliance.KeyKindDev, appliance.DefaultScopes...)
	e.devAll = e.addKey(e.user, appliance.KeyKindDev, appliance.AvailableScopes...)
	e.devRevoked = e.addKey(e.user, appliance.KeyKindDev, appliance.ScopeConversationsRead, appliance.ScopeConversationsWrite)
	e.mcp = e.addKey(e.user, appliance.KeyKindMCP, appliance.DefaultScopes...)
	e.otherRW = e.addKey(e.other, appliance.KeyKindDev, appliance.ScopeConversationsRead, appliance.ScopeConversationsWrite)
	if err := db.RevokeKey(ctx, e.user, keyID(e.devRevoked), time.Now()); err != nil {
		tb.Fatal(err)
	}
	if e.token, err = signer.Issue(e.user, time.Hour); err != nil {
		tb.Fatal(err)
	}
	return e
}

func (e *env) addUser(name string) string {
	e.t.Helper()
	u := &appliance.User{ID: "u-" + strings.ToLower(strings.Fields(name)[0]), Name: name, CreatedAt: time.Now()}
	if err := e.db.CreateUser(context.Background(), u); err != nil {
		e.t.Fatal(err)
	}
	return u.ID
}

func (e *env) addKey(uid string, kind appliance.KeyKind, scopes ...string) string {
	e.t.Helper()
	raw, hash, display := appliance.NewKeySecret(kind)
	k := &appliance.Key{ID: display, UserID: uid, Kind: kind, Name: "test", Hash: hash, Display: display, Scopes: scopes, CreatedAt: time.Now()}
	if err := e.db.CreateKey(context.Background(), k); err != nil {
		e.t.Fatal(err)
	}
	return raw
}

// do sends one request through the full router. auth is the whole
// Authorization header value ("" sends none).
func (e *env) do(method, path, auth, body string) *httptest.ResponseRecorder {
	e.t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, path, r)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	rec := httptest.NewRecorder()
	e.srv.ServeHTTP(rec, req)
	return rec
}

func bearer(k string) string { return "Bearer " + k }

// keyID is the id addKey gives a key: its display form.
func keyID(raw string) string {
	i := strings.LastIndex(raw, "_") + 1
	return raw[:i+4] + "..." + raw[len(raw)-4:]
}

// create posts a from-segments body with the read-write key and returns the
// decoded response, failing the test on a non-200.
func (e *env) create(body string) map[string]any {
	e.t.Helper()
	rec := e.do(http.MethodPost, "/v1/dev/user/conversations/from-segments", bearer(e.devRW), body)
	if rec.Code != http.StatusOK {
		e.t.Fatalf("create: %d %s", rec.Code, rec.Body)
	}
	return decode(e.t, rec)
}

func decode(tb testing.TB, rec *httptest.ResponseRecorder) map[string]any {
	tb.Helper()
	var m map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil {
		tb.Fatalf("decode %q: %v", rec.Body.String(), err)
	}
	return m
}

func decodeList(tb testing.TB, rec *httptest.ResponseRecorder) []map[string]any {
	tb.Helper()
	var l []map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &l); err != nil {
		tb.Fatalf("decode list %q: %v", rec.Body.String(), err)
	}
	return l
}

// A realistic two-speaker transcript the built-in extractor keeps.
const meetingBody = `{"transcript_segments":[
 {"text":"We need to finalize the quarterly budget review before the board meeting next week.","speaker":"SPEAKER_00","is_user":true,"start":0,"end":4},
 {"text":"The marketing budget is over by ten percent, so we should cut conference spending.","speaker":"SPEAKER_01","start":4.5,"end":9},
 {"text":"Agreed. I will send the revised budget spreadsheet to finance on Thursday.","speaker":"SPEAKER_00","is_user":true,"start":9.5,"end":13}
]}`

// apiCase is one request and what the response must show.
type apiCase struct {
	Name         string
	Method, Path string
	Auth, Body   string
	WantStatus   int
	WantContains []string
	WantAbsent   []string
}

func (e *env) run(t *testing.T, cases []apiCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			rec := e.do(tc.Method, tc.Path, tc.Auth, tc.Body)
			if rec.Code != tc.WantStatus {
				t.Fatalf("status = %d, want %d; body %s", rec.Code, tc.WantStatus, rec.Body)
			}
			for _, s := range tc.WantContains {
				if !strings.Contains(rec.Body.String(), s) {
					t.Errorf("body %s does not contain %q", rec.Body, s)
				}
			}
			for _, s := range tc.WantAbsent {
				if strings.Contains(rec.Body.String(), s) {
					t.Errorf("body %s contains %q", rec.Body, s)
				}
			}
		})
	}
}

package api_test

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/api"
	"github.com/hearth-appliance/hearth/appliance/authn"
	"github.com/hearth-appliance/hearth/appliance/conversation"
	"github.com/hearth-appliance/hearth/appliance/events"
	"github.com/hearth-appliance/hearth/appliance/firebaseauth"
	"github.com/hearth-appliance/hearth/appliance/firebaseauth/firebasetest"
	"github.com/hearth-appliance/hearth/appliance/idtoken"
	"github.com/hearth-appliance/hearth/appliance/listen"
	"github.com/hearth-appliance/hearth/appliance/pipeline"
	"github.com/hearth-appliance/hearth/appliance/pipeline/embed"
	"github.com/hearth-appliance/hearth/appliance/records"
	"github.com/hearth-appliance/hearth/appliance/search"
	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/appliance/stt/scripted"
	"github.com/hearth-appliance/hearth/store"
)

// socketEnv is the live-audio sockets behind the real router on a loopback
// server: real store, authenticator (with a Firebase project whose
// certificates a local endpoint serves), sessions and scripted route.
type socketEnv struct {
	t        *testing.T
	db       *store.DB
	base     string // ws://127.0.0.1:PORT
	signer   *idtoken.Signer
	firebase *firebasetest.Issuer

	ada, grace string // user ids; ada's Firebase account is bound
	adaFUID    string
	adaToken   string // ID token of ada
	graceToken string
	adaKey     string // ada's device key (hearth_stt_)
	adaDev     string // ada's developer key
}

func newSocketEnv(t *testing.T) *socketEnv {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	db, err := store.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	signer, err := idtoken.LoadOrCreate(dir)
	if err != nil {
		t.Fatal(err)
	}
	fb := firebasetest.New(t, "hearth-test-app")
	verifier, err := firebaseauth.New(firebaseauth.Config{ProjectID: fb.ProjectID, CertsURL: fb.URL})
	if err != nil {
		t.Fatal(err)
	}
	auth := authn.New(db, signer, nil, nil).WithFirebase(verifier)
	t.Cleanup(auth.Close)
	broker := events.NewBroker(0)
	t.Cleanup(broker.Close)
	conv := conversation.New(conversation.Deps{Store: db, Events: broker,
		Processor: pipeline.New(pipeline.NewBuiltin(), slog.New(slog.DiscardHandler))})
	sessions := listen.New(listen.Deps{Conversations: conv, History: db, Events: broker, SpoolDir: t.TempDir(),
		Router: stt.NewRouter(nil, scripted.New(scripted.Script{Utterances: []scripted.Utterance{{Text: "hello"}}}))})
	cfg := appliance.DefaultConfig()
	cfg.RateLimitBoost = 0
	searcher := search.NewSearcher(db, embed.NewBuiltin(0), nil)
	srv, err := api.New(api.Deps{Config: cfg, Store: db, Auth: auth, Conversations: conv, Listen: sessions,
		Records: records.New(records.Deps{Store: db, Search: searcher})})
	if err != nil {
		t.Fatal(err)
	}
	h := httptest.NewServer(srv)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		sessions.Shutdown(ctx)
		h.Close()
	})
	e := &socketEnv{t: t, db: db, base: strings.Replace(h.URL, "http://", "ws://", 1), signer: signer, firebase: fb,
		ada: "u-ada", grace: "u-grace", adaFUID: "fb-ada-123"}
	for _, id := range []string{e.ada, e.grace} {
		if err := db.CreateUser(ctx, &appliance.User{ID: id, Name: id, CreatedAt: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.BindFirebase(ctx, appliance.FirebaseAccount{UID: e.adaFUID, UserID: e.ada, CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	e.adaToken, _ = signer.Issue(e.ada, time.Hour)
	e.graceToken, _ = signer.Issue(e.grace, time.Hour)
	e.adaKey = e.key(e.ada, appliance.KeyKindSTT)
	e.adaDev = e.key(e.ada, appliance.KeyKindDev, appliance.ScopeConversationsWrite)
	return e
}

func (e *socketEnv) key(uid string, kind appliance.KeyKind, scopes ...string) string {
	e.t.Helper()
	raw, hash, display := appliance.NewKeySecret(kind)
	k := &appliance.Key{ID: display, UserID: uid, Kind: kind, Name: "test", Hash: hash, Display: display, Scopes: scopes, CreatedAt: time.Now()}
	if err := e.db.CreateKey(context.Background(), k); err != nil {
		e.t.Fatal(err)
	}
	return raw
}

// listenQuery is the Omi app's query string for uid, with the app's
// transcripts (custom STT), so that a session that opened could write.
func listenQuery(uid string) string {
	return "/v4/listen?language=en&sample_rate=16000&codec=pcm16&uid=" + url.QueryEscape(uid) +
		"&include_speech_profile=true&stt_service=soniox&conversation_timeout=120&custom_stt=enabled"
}

const customSTTQuery = "/v1/custom-stt?codec=pcm16&sample_rate=16000&language=en"

// dial opens path; header is the whole Authorization value, nil for none.
func (e *socketEnv) dial(path string, header *string) *websocket.Conn {
	e.t.Helper()
	h := http.Header{}
	if header != nil {
		h["Authorization"] = []string{*header}
	}
	conn, resp, err := websocket.DefaultDialer.Dial(e.base+path, h)
	if err != nil {
		e.t.Fatalf("dial %s: %v (%v)", path, err, resp)
	}
	e.t.Cleanup(func() { conn.Close() })
	return conn
}

// next reads until a close (code and reason) or a service_status event
// (code 0, the event), failing after 10 s.
func next(t *testing.T, conn *websocket.Conn) (int, string) {
	t.Helper()
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		_, data, err := conn.ReadMessage()
		var ce *websocket.CloseError
		switch {
		case errors.As(err, &ce):
			return ce.Code, ce.Text
		case err != nil:
			t.Fatalf("read: %v", err)
		}
		var ev map[string]any
		if json.Unmarshal(data, &ev) == nil && ev["type"] == "service_status" {
			return 0, string(data)
		}
	}
}

func ptr(s string) *string { return &s }

// TestLiveSocketRefusals: every way of presenting no credential, a bad
// one or someone else's closes both live-audio sockets, and nothing
// reaches the account named by a uid alone.
func TestLiveSocketRefusals(t *testing.T) {
	t.Parallel()
	e := newSocketEnv(t)
	expired, _ := e.signer.Issue(e.ada, -time.Minute)
	fbExpired := e.firebase.Sign(t, e.firebase.Claims(e.adaFUID, time.Now().Add(-2*time.Hour)))
	fbUnbound := e.firebase.Token(t, "fb-stranger")
	revoked := e.key(e.ada, appliance.KeyKindSTT)
	if err := e.db.RevokeKey(context.Background(), e.ada, keyID(revoked), time.Now()); err != nil {
		t.Fatal(err)
	}
	const noCred, invalid, unbound = "Auth error: an ID token (hearth token) or a device key (hearth keys create --kind stt) is required", "Invalid token",
		"Invalid token: Firebase account not bound (hearth users bind-firebase)"

	for _, tc := range []struct {
		name   string
		uid    string  // for /v4/listen; "" skips the case there
		header *string // nil sends no Authorization header
		stt    bool    // also on /v1/custom-stt
		code   int
		reason string
	}{
		{"no header (a uid alone)", e.ada, nil, true, 1008, noCred},
		{"Bearer and nothing", e.ada, ptr("Bearer "), true, 1008, invalid},
		{"empty header", e.ada, ptr(""), true, 1008, invalid},
		{"Basic", e.ada, ptr("Basic x"), true, 1008, invalid},
		{"a bare token without Bearer", e.ada, ptr(e.adaToken), true, 1008, invalid},
		{"garbage token", e.ada, ptr("Bearer garbage"), true, 1008, invalid},
		{"a developer key", e.ada, ptr("Bearer " + e.adaDev), true, 1008, invalid},
		{"a revoked device key", e.ada, ptr("Bearer " + revoked), true, 1008, invalid},
		{"another user's token with this uid", e.ada, ptr("Bearer " + e.graceToken), false, 1008, invalid},
		{"own token with another user's uid", e.grace, ptr("Bearer " + e.adaToken), false, 1008, invalid},
		{"own device key with another user's uid", e.grace, ptr("Bearer " + e.adaKey), false, 1008, invalid},
		{"own token with an unknown uid", "nobody", ptr("Bearer " + e.adaToken), false, 1008, invalid},
		{"a bound Firebase token with another user's uid", e.grace, ptr("Bearer " + e.firebase.Token(t, e.adaFUID)), false, 1008, invalid},
		{"expired token", e.ada, ptr("Bearer " + expired), true, 4001, "Token expired"},
		{"expired Firebase token", e.adaFUID, ptr("Bearer " + fbExpired), true, 4001, "Token expired"},
		{"unbound Firebase token", "fb-stranger", ptr("Bearer " + fbUnbound), true, 1008, unbound},
		{"another project's Firebase token", e.adaFUID, ptr("Bearer " + firebasetest.New(t, "other-app").Token(t, e.adaFUID)), true, 1008, invalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			paths := []string{listenQuery(tc.uid)}
			if tc.stt {
				paths = append(paths, customSTTQuery)
			}
			for _, p := range paths {
				conn := e.dial(p, tc.header)
				// What a session would store, sent at once: it must go nowhere.
				conn.WriteJSON(map[string]any{"type": "suggested_transcript", "stt_provider": "mallory",
					"segments": []map[string]any{{"text": "Injected.", "speaker": "SPEAKER_00", "start": 0, "end": 1}}})
				code, reason := next(t, conn)
				if code != tc.code || reason != tc.reason {
					t.Errorf("%s: close %d %q, want %d %q", strings.SplitN(p, "?", 2)[0], code, reason, tc.code, tc.reason)
				}
			}
		})
	}
	for _, uid := range []string{e.ada, e.grace} {
		if cs, err := e.db.Conversations(context.Background(), uid, appliance.ConversationFilter{Limit: 10}); err != nil || len(cs) != 0 {
			t.Fatalf("%s has %d conversations after refused sockets (%v)", uid, len(cs), err)
		}
	}
}

// TestLiveSocketWaysIn: an ID token (this appliance's or a bound Firebase
// one) and a device key open both sockets; the uid may name the account
// by its user id or its bound Firebase uid, and the session is the
// credential's user's.
func TestLiveSocketWaysIn(t *testing.T) {
	t.Parallel()
	e := newSocketEnv(t)
	fb := e.firebase.Token(t, e.adaFUID)
	for _, tc := range []struct {
		name, uid, cred string
	}{
		{"ID token", e.ada, e.adaToken},
		{"ID token, uid the bound Firebase uid", e.adaFUID, e.adaToken},
		{"device key", e.ada, e.adaKey},
		{"Firebase token, uid the Firebase uid (the Omi app)", e.adaFUID, fb},
		{"Firebase token, uid the user id", e.ada, fb},
	} {
		t.Run(tc.name, func(t *testing.T) {
			conn := e.dial(listenQuery(tc.uid), ptr("Bearer "+tc.cred))
			if code, ev := next(t, conn); code != 0 || !strings.Contains(ev, `"ready"`) {
				t.Fatalf("/v4/listen: close %d %q, want service_status ready", code, ev)
			}
			conn.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""))

			conn = e.dial(customSTTQuery, ptr("Bearer "+tc.cred))
			conn.WriteJSON(map[string]any{"type": "CloseStream"})
			if code, reason := next(t, conn); code != websocket.CloseNormalClosure {
				t.Fatalf("/v1/custom-stt: close %d %q, want 1000 after CloseStream", code, reason)
			}
		})
	}
	// The query's token, for apps that can set only a URL.
	for _, cred := range []string{e.adaKey, fb, e.adaToken} {
		conn := e.dial(customSTTQuery+"&token="+url.QueryEscape(cred), nil)
		conn.WriteJSON(map[string]any{"type": "CloseStream"})
		if code, reason := next(t, conn); code != websocket.CloseNormalClosure {
			t.Fatalf("/v1/custom-stt?token=: close %d %q", code, reason)
		}
	}
	conn := e.dial(customSTTQuery+"&token=", nil)
	if code, reason := next(t, conn); code != 1008 || reason != "Invalid token" {
		t.Fatalf("/v1/custom-stt?token= (empty): close %d %q", code, reason)
	}

	// A session opened with the Firebase uid writes to the bound user.
	conn = e.dial(listenQuery(e.adaFUID), ptr("Bearer "+fb))
	if code, _ := next(t, conn); code != 0 {
		t.Fatalf("close %d", code)
	}
	conn.WriteJSON(map[string]any{"type": "suggested_transcript", "stt_provider": "phone",
		"segments": []map[string]any{{"text": "Written through Firebase.", "speaker": "SPEAKER_00", "start": 0, "end": 1}}})
	deadline := time.Now().Add(10 * time.Second)
	for {
		cs, err := e.db.Conversations(context.Background(), e.ada, appliance.ConversationFilter{Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		if len(cs) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no recording of %s after a segment through the Firebase uid: %d", e.ada, len(cs))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

package api_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/api"
	"github.com/hearth-appliance/hearth/appliance/authn"
	"github.com/hearth-appliance/hearth/appliance/conversation"
	"github.com/hearth-appliance/hearth/appliance/idtoken"
	"github.com/hearth-appliance/hearth/appliance/logring"
	"github.com/hearth-appliance/hearth/appliance/records"
	"github.com/hearth-appliance/hearth/store"
)

// fakeConsole signs in by token: the token is the user's id. The owner is
// "u-ada".
type fakeConsole struct{ api.ConsoleAuth }

func (fakeConsole) Session(_ context.Context, token string) (*appliance.ConsoleSession, error) {
	if token == "" {
		return nil, appliance.Errorf(appliance.EUNAUTHORIZED, "Not signed in")
	}
	return &appliance.ConsoleSession{UserID: token, CSRF: "csrf"}, nil
}

func (fakeConsole) Owner(context.Context) (string, error) { return "u-ada", nil }

// slowBackups holds every backup until released, so that a second one
// can be asked for while the first runs.
type slowBackups struct {
	*store.DB
	started, release chan struct{}
}

func (s *slowBackups) Backup(ctx context.Context, path string, progress func(done, total int)) error {
	s.started <- struct{}{}
	<-s.release
	return s.DB.Backup(ctx, path, progress)
}

func newSystemServer(t *testing.T) (*api.Server, *slowBackups) {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	db, err := store.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	for _, id := range []string{"u-ada", "u-bo"} {
		if err := db.CreateUser(ctx, &appliance.User{ID: id, Name: id, CreatedAt: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	signer, err := idtoken.LoadOrCreate(dir)
	if err != nil {
		t.Fatal(err)
	}
	auth := authn.New(db, signer, nil, nil)
	t.Cleanup(auth.Close)
	ring := logring.NewRing(10)
	slog.New(logring.New(slog.DiscardHandler, ring, slog.LevelInfo)).Info("hearth serving", "version", "1.2.3")
	cfg := appliance.DefaultConfig()
	cfg.DataDir = dir
	slow := &slowBackups{DB: db, started: make(chan struct{}), release: make(chan struct{})}
	srv, err := api.New(api.Deps{
		Config: cfg, Store: slow, Auth: auth, ConsoleAuth: fakeConsole{},
		Conversations: conversation.New(conversation.Deps{Store: db}),
		Records:       records.New(records.Deps{Store: db}),
		System:        api.System{Version: "1.2.3", StartedAt: time.Now().Add(-time.Minute), Routes: []string{"whisper"}, Log: ring.Records},
	})
	if err != nil {
		t.Fatal(err)
	}
	return srv, slow
}

func consoleGet(srv http.Handler, path, user string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodGet, path, nil)
	if user != "" {
		req.AddCookie(&http.Cookie{Name: "hearth_session", Value: user})
	}
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	return rec
}

// TestConsoleSystemAccess: the System page needs a session; the backup is
// the owner's only.
func TestConsoleSystemAccess(t *testing.T) {
	t.Parallel()
	srv, slow := newSystemServer(t)
	close(slow.release)
	go func() {
		for range slow.started {
		}
	}()
	t.Cleanup(func() { close(slow.started) })
	tests := []struct {
		path, user string
		want       int
	}{
		{"/console/api/system", "", http.StatusUnauthorized},
		{"/console/api/system", "u-bo", http.StatusOK},
		{"/console/api/system", "u-ada", http.StatusOK},
		{"/console/api/system/backup", "", http.StatusUnauthorized},
		{"/console/api/system/backup", "u-bo", http.StatusForbidden},
		{"/console/api/system/backup", "u-ada", http.StatusOK},
	}
	for _, tt := range tests {
		rec := consoleGet(srv, tt.path, tt.user)
		if rec.Code != tt.want {
			t.Errorf("GET %s as %q: %d, want %d (%s)", tt.path, tt.user, rec.Code, tt.want, rec.Body)
		}
	}
	rec := consoleGet(srv, "/console/api/system", "u-ada")
	var got struct {
		Version       string
		UptimeSeconds int64 `json:"uptime_seconds"`
		Routes        []string
		Log           []logring.Record
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got.Version != "1.2.3" || got.UptimeSeconds < 59 || len(got.Routes) != 1 || len(got.Log) != 1 || got.Log[0].Attrs["version"] != "1.2.3" {
		t.Errorf("system: %s", rec.Body)
	}
}

// TestConsoleBackupOneAtATime: a backup asked for while one is being made
// is refused with 409, and the first completes.
func TestConsoleBackupOneAtATime(t *testing.T) {
	t.Parallel()
	srv, slow := newSystemServer(t)
	first := make(chan *httptest.ResponseRecorder)
	go func() { first <- consoleGet(srv, "/console/api/system/backup", "u-ada") }()
	<-slow.started
	rec := consoleGet(srv, "/console/api/system/backup", "u-ada")
	var body struct{ Detail string }
	if rec.Code != http.StatusConflict || json.Unmarshal(rec.Body.Bytes(), &body) != nil || body.Detail == "" {
		t.Errorf("a second backup: %d %s", rec.Code, rec.Body)
	}
	close(slow.release)
	if rec := <-first; rec.Code != http.StatusOK || rec.Body.Len() == 0 {
		t.Fatalf("the first backup: %d", rec.Code)
	}
	// And once done, another may start.
	go func() { <-slow.started }()
	if rec := consoleGet(srv, "/console/api/system/backup", "u-ada"); rec.Code != http.StatusOK {
		t.Fatalf("a backup after the first: %d", rec.Code)
	}
}

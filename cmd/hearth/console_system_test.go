package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/store"
)

// setupCode waits for the one-time setup code serve prints.
func setupCode(t *testing.T, srv *server) string {
	t.Helper()
	printed := regexp.MustCompile(`setup code (\d{4}-\d{4}-\d{4}-\d{4})`)
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if m := printed.FindStringSubmatch(srv.logs.String()); m != nil {
			return m[1]
		}
	}
	t.Fatalf("no setup code printed:\n%s", srv.logs.String())
	return ""
}

// get sends a GET with the client's cookies and returns the whole reply.
func (c *consoleClient) get(path string) (*http.Response, []byte) {
	c.t.Helper()
	resp, err := c.http.Get(c.base + path)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		c.t.Fatal(err)
	}
	return resp, b
}

// TestConsoleSystem: the System page's API through the binary. Without a
// session it answers 401; with one it tells the version, uptime, disk,
// database and the signed-in user's own counts, and the log's last
// records; the owner downloads a backup that restore would accept, and
// another user may not.
func TestConsoleSystem(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	// A backup a power cut interrupted: its folder is gone once the
	// appliance has started.
	stale := filepath.Join(data, ".console-backup-123")
	if err := os.MkdirAll(stale, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(stale, "hearth.db"), []byte("half a copy"), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := startServe(t, data)
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("an interrupted backup's folder is still there after start: %v", err)
	}
	code := setupCode(t, srv)

	anon := newConsoleClient(t, srv.base)
	for _, path := range []string{"/console/api/system", "/console/api/system/backup"} {
		if resp, b := anon.get(path); resp.StatusCode != 401 {
			t.Fatalf("GET %s without a session: %d %s", path, resp.StatusCode, b)
		}
	}

	ada := newConsoleClient(t, srv.base)
	st, v, _ := ada.do("POST", "/console/api/setup", `{"code":"`+code+`","name":"Ada","password":"correct horse battery"}`)
	if st != 200 {
		t.Fatalf("setup: %d %v", st, v)
	}
	adaID := v["user"].(map[string]any)["id"].(string)

	// One conversation of Ada's, through the developer API.
	key := mustCLI(t, "keys", "create", "--data", data, "--user", adaID, "--kind", "dev", "--scopes", "conversations:read,conversations:write")
	req, _ := http.NewRequest("POST", srv.base+"/v1/dev/user/conversations/from-segments",
		strings.NewReader(`{"transcript_segments":[{"text":"Book the car's service for next Tuesday at nine.","speaker":"SPEAKER_00","is_user":true,"start":0,"end":3}]}`))
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("create a conversation: %d", resp.StatusCode)
	}

	type systemReply struct {
		Version       string `json:"version"`
		StartedAt     string `json:"started_at"`
		UptimeSeconds *int64 `json:"uptime_seconds"`
		DataDir       string `json:"data_dir"`
		Disk          struct {
			FreeBytes  uint64 `json:"free_bytes"`
			TotalBytes uint64 `json:"total_bytes"`
		} `json:"disk"`
		Database struct {
			Bytes         int64 `json:"bytes"`
			Conversations *int  `json:"conversations"`
			Memories      *int  `json:"memories"`
		} `json:"database"`
		SearchIndex *struct {
			Model       string   `json:"model"`
			Embedded    *float64 `json:"embedded"`
			Pending     *int     `json:"pending"`
			Reembedding *bool    `json:"reembedding"`
		} `json:"search_index"`
		Log []struct {
			Time  time.Time         `json:"time"`
			Level string            `json:"level"`
			Msg   string            `json:"msg"`
			Attrs map[string]string `json:"attrs"`
		} `json:"log"`
	}
	system := func(c *consoleClient) systemReply {
		t.Helper()
		resp, b := c.get("/console/api/system")
		var out systemReply
		if resp.StatusCode != 200 || json.Unmarshal(b, &out) != nil {
			t.Fatalf("GET /console/api/system: %d %s", resp.StatusCode, b)
		}
		return out
	}
	sys := system(ada)
	if sys.Version == "" || sys.UptimeSeconds == nil || *sys.UptimeSeconds < 0 {
		t.Errorf("version %q, uptime %v", sys.Version, sys.UptimeSeconds)
	}
	if started, err := time.Parse(time.RFC3339, sys.StartedAt); err != nil || time.Since(started) > time.Hour {
		t.Errorf("started_at %q: %v", sys.StartedAt, err)
	}
	if abs, _ := filepath.Abs(data); sys.DataDir != abs {
		t.Errorf("data_dir %q, want %q", sys.DataDir, abs)
	}
	if sys.Disk.TotalBytes == 0 || sys.Disk.FreeBytes > sys.Disk.TotalBytes {
		t.Errorf("disk: %+v", sys.Disk)
	}
	if sys.Database.Bytes <= 0 || sys.Database.Conversations == nil || *sys.Database.Conversations != 1 ||
		sys.Database.Memories == nil {
		t.Errorf("database: %+v", sys.Database)
	}
	if si := sys.SearchIndex; si == nil || si.Embedded == nil || *si.Embedded < 0 || *si.Embedded > 1 || si.Pending == nil || si.Reembedding == nil {
		t.Errorf("search index: %+v", sys.SearchIndex)
	}
	var serving bool
	for _, r := range sys.Log {
		if r.Msg == "hearth serving" && r.Level == "INFO" && r.Attrs["version"] == sys.Version && !r.Time.IsZero() {
			serving = true
		}
	}
	if !serving {
		t.Errorf("no serving line in the log: %+v", sys.Log)
	}
	// The requests are there too, debug as they are in the log itself:
	// the conversation made with the key and the refused calls without a
	// session. The test binary is a plain go build: its version says so.
	requests := map[string]bool{}
	for _, r := range sys.Log {
		if r.Msg == "http" {
			requests[r.Attrs["method"]+" "+r.Attrs["route"]+" "+r.Attrs["status"]] = true
		}
	}
	for _, want := range []string{"POST /v1/dev/user/conversations/from-segments 200", "GET /console/api/system 401", "POST /console/api/setup 200"} {
		if !requests[want] {
			t.Errorf("no request line %q in the log: %v", want, requests)
		}
	}
	if !strings.HasPrefix(sys.Version, "development build") {
		t.Errorf("version %q, want a development build's", sys.Version)
	}
	// Nothing the sign-in handled may reach the log the page shows.
	if raw, _ := json.Marshal(sys.Log); bytes.Contains(raw, []byte("correct horse")) || bytes.Contains(raw, []byte(code)) || bytes.Contains(raw, []byte(key)) {
		t.Error("a secret in the log the console shows")
	}

	// The owner's backup: a SQLite file that restore would accept.
	resp, body := ada.get("/console/api/system/backup")
	if resp.StatusCode != 200 || !bytes.HasPrefix(body, []byte("SQLite format 3\x00")) {
		t.Fatalf("backup: %d %.60q", resp.StatusCode, body)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/vnd.sqlite3" {
		t.Errorf("backup's Content-Type %q", ct)
	}
	if cd := resp.Header.Get("Content-Disposition"); !regexp.MustCompile(`^attachment; filename="hearth-backup-\d{8}-\d{6}\.db"$`).MatchString(cd) {
		t.Errorf("backup's Content-Disposition %q", cd)
	}
	backup := filepath.Join(t.TempDir(), "backup.db")
	if err := os.WriteFile(backup, body, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := store.CheckBackup(ctx, backup); err != nil {
		t.Fatalf("the backup: %v", err)
	}
	// The temporary copy is gone from the data folder.
	if left, _ := filepath.Glob(filepath.Join(data, ".console-backup-*")); len(left) > 0 {
		t.Errorf("left in the data folder: %v", left)
	}

	// A second user sees their own counts and may not take the box's data.
	bo := mustCLI(t, "users", "add", "--data", data, "--name", "Bo")
	cmd := exec.Command(hearthBin, "users", "passwd", "--data", data, "--user", bo)
	cmd.Stdin = strings.NewReader("bo's long password\n")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("users passwd: %v %s", err, out)
	}
	boc := newConsoleClient(t, srv.base)
	if st, _, _ := boc.do("POST", "/console/api/login", `{"name":"Bo","password":"bo's long password"}`); st != 200 {
		t.Fatalf("Bo's login: %d", st)
	}
	if got := system(boc).Database; got.Conversations == nil || *got.Conversations != 0 {
		t.Errorf("Bo's counts: %+v", got)
	}
	resp, body = boc.get("/console/api/system/backup")
	var refusal struct{ Detail string }
	if resp.StatusCode != 403 || json.Unmarshal(body, &refusal) != nil || refusal.Detail == "" {
		t.Fatalf("Bo's backup: %d %.80q", resp.StatusCode, body)
	}
}

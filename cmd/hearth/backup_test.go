package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// TestBackupRestoreExport: a backup taken while the appliance serves and
// writes, restored over a stopped appliance (never over a running one),
// and a user's data exported for programs and for people.
func TestBackupRestoreExport(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	noLimits := "HEARTH_RATE_LIMIT_BOOST=0"
	srv := startServe(t, data, noLimits)
	uid := mustCLI(t, "users", "add", "--data", data, "--name", "Ada", "--time-zone", "Europe/Berlin")
	key := mustCLI(t, "keys", "create", "--data", data, "--user", uid, "--kind", "dev",
		"--scopes", "conversations:read,conversations:write,memories:read,memories:write")
	create := func(i int) string {
		body := fmt.Sprintf(`{"transcript_segments":[{"text":"Plan number %d: I will renew the passport before the trip to Lisbon next month, and book the hotel.","is_user":true,"start":0,"end":6}]}`, i)
		code, resp := srv.call(t, "POST", "/v1/dev/user/conversations/from-segments", key, body)
		if code != 200 {
			t.Errorf("create: %d %s", code, resp)
			return ""
		}
		var r struct{ ID string }
		json.Unmarshal([]byte(resp), &r)
		return r.ID
	}
	var before []string
	for i := range 20 {
		before = append(before, create(i))
	}
	if code, resp := srv.call(t, "POST", "/v1/dev/user/memories", key, `{"content":"Ada's passport expires in March","category":"system"}`); code != 200 {
		t.Fatalf("memory: %d %s", code, resp)
	}

	// Back up while another client keeps writing.
	var writing sync.WaitGroup
	stop := atomic.Bool{}
	writing.Add(1)
	go func() {
		defer writing.Done()
		for i := 100; !stop.Load(); i++ {
			create(i)
		}
	}()
	backup := filepath.Join(t.TempDir(), "hearth-backup.db")
	out, errOut, code := cli(t, "backup", "--data", data, "--out", backup)
	stop.Store(true)
	writing.Wait()
	if code != 0 || strings.TrimSpace(out) != backup || !strings.Contains(errOut, "backup: 100%") {
		t.Fatalf("backup: exit %d\n%s\n%s", code, out, errOut)
	}
	if st, err := os.Stat(backup); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("backup file %v %v", st, err)
	}
	if _, errOut, code := cli(t, "backup", "--data", data, "--out", backup); code == 0 || !strings.Contains(errOut, "exists") {
		t.Fatalf("a backup over an existing file: exit %d %s", code, errOut)
	}

	// Never over a running appliance, and never two appliances on one folder.
	if _, errOut, code := cli(t, "restore", backup, "--data", data); code != 1 || !strings.Contains(errOut, "a running hearth serve is using this data folder") ||
		!strings.Contains(errOut, "Ctrl-C where `make run`") || !strings.Contains(errOut, "hearth service stop") {
		t.Fatalf("restore while serving: exit %d %s", code, errOut)
	}
	if _, errOut, code := cli(t, "serve", "--data", data, "--addr", "127.0.0.1:0"); code != 1 || !strings.Contains(errOut, "a running hearth serve is using this data folder") ||
		!strings.Contains(errOut, "stop the running hearth first") || !strings.Contains(errOut, "its own --data") {
		t.Fatalf("a second serve: exit %d %s", code, errOut)
	}

	// Export, for programs and for people.
	out, errOut, code = cli(t, "export", "--data", data, "--user", uid, "--format", "json")
	var ex struct {
		User          struct{ Name string }
		Conversations []struct {
			ID                 string
			TranscriptSegments []any `json:"transcript_segments"`
		}
		Memories    []struct{ Content string }
		ActionItems []struct{ Description string } `json:"action_items"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &ex) != nil || ex.User.Name != "Ada" || len(ex.Conversations) < 20 ||
		len(ex.Conversations[0].TranscriptSegments) != 1 || len(ex.Memories) != 1 || !strings.Contains(errOut, " conversations, 1 memory, ") {
		t.Fatalf("export json: exit %d %s\n%.500s", code, errOut, out)
	}
	out, _, code = cli(t, "export", "--data", data, "--user", uid)
	if code != 0 || !strings.HasPrefix(out, "# Hearth export for Ada") || !strings.Contains(out, "## Memories") ||
		!strings.Contains(out, "- Ada's passport expires in March") || !strings.Contains(out, "Plan number 3: I will renew the passport") ||
		!regexp.MustCompile(`(?m)^### [\pL\pN(]`).MatchString(out) || regexp.MustCompile(`(?m)^### [^\pL\pN(]`).MatchString(out) {
		t.Fatalf("export markdown: exit %d\n%.800s", code, out)
	}

	// Stopped, the backup goes in; the database it replaces is kept.
	srv.stop(t)
	bogus := filepath.Join(t.TempDir(), "notes.db")
	os.WriteFile(bogus, []byte("not a database"), 0o600)
	if _, errOut, code := cli(t, "restore", bogus, "--data", data); code != 1 || !strings.Contains(errOut, "not a") {
		t.Fatalf("restore of a non-database: exit %d %s", code, errOut)
	}
	if _, errOut, code := cli(t, "restore", backup, "--data", data); code != 0 || !strings.Contains(errOut, "is kept as") {
		t.Fatalf("restore: exit %d %s", code, errOut)
	}
	if kept, _ := filepath.Glob(filepath.Join(data, "hearth.db.before-restore-*")); len(kept) == 0 {
		t.Fatal("the replaced database was not kept")
	}
	srv = startServe(t, data, noLimits)
	for _, id := range before {
		if code, resp := srv.call(t, "GET", "/v1/dev/user/conversations/"+id, key, ""); code != 200 {
			t.Fatalf("conversation %s after restore: %d %s", id, code, resp)
		}
	}
}

// TestRestoreALitestreamStyleCopy: a copy of a live database file with its
// write-ahead log (what Litestream replicates) restores, with the writes
// that were only in the log.
func TestRestoreALitestreamStyleCopy(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	srv := startServe(t, data, "HEARTH_RATE_LIMIT_BOOST=0")
	uid := mustCLI(t, "users", "add", "--data", data, "--name", "Ada")
	key := mustCLI(t, "keys", "create", "--data", data, "--user", uid, "--kind", "dev", "--scopes", "conversations:read,conversations:write")
	code, resp := srv.call(t, "POST", "/v1/dev/user/conversations/from-segments", key,
		`{"transcript_segments":[{"text":"I will renew the passport before the trip to Lisbon next month.","is_user":true,"start":0,"end":5}]}`)
	if code != 200 {
		t.Fatalf("create: %d %s", code, resp)
	}
	var created struct{ ID string }
	json.Unmarshal([]byte(resp), &created)
	replica := t.TempDir()
	for _, sfx := range []string{"", "-wal"} {
		b, err := os.ReadFile(filepath.Join(data, "hearth.db"+sfx))
		if err != nil {
			t.Fatal(err)
		}
		if sfx == "-wal" && len(b) == 0 {
			t.Fatal("the write-ahead log is empty: nothing to prove")
		}
		os.WriteFile(filepath.Join(replica, "hearth.db"+sfx), b, 0o600)
	}
	fresh := t.TempDir()
	if _, errOut, code := cli(t, "restore", filepath.Join(replica, "hearth.db"), "--data", fresh); code != 0 {
		t.Fatalf("restore: exit %d %s", code, errOut)
	}
	srv2 := startServe(t, fresh, "HEARTH_RATE_LIMIT_BOOST=0")
	if code, resp := srv2.call(t, "GET", "/v1/dev/user/conversations/"+created.ID, key, ""); code != 200 || !strings.Contains(resp, "Lisbon") && !strings.Contains(resp, "Passport") {
		t.Fatalf("the conversation only the log held: %d %s", code, resp)
	}
}

// TestBackupAudio: `hearth backup --audio` copies the kept recordings
// into FILE.recordings beside the database (without it, none), and
// restore puts them back into a data folder.
func TestBackupAudio(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	mustCLI(t, "users", "add", "--data", data, "--name", "Ada")
	rec := filepath.Join("recordings", "u1", "c1", "1700000000000.ogg")
	if err := os.MkdirAll(filepath.Dir(filepath.Join(data, rec)), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(data, rec), []byte("OggS and the rest"), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	plain, withAudio := filepath.Join(dir, "plain.db"), filepath.Join(dir, "audio.db")
	mustCLI(t, "backup", "--data", data, "--out", plain)
	if _, err := os.Stat(plain + ".recordings"); !os.IsNotExist(err) {
		t.Errorf("a backup without --audio copied the audio: %v", err)
	}
	if _, errOut, code := cli(t, "backup", "--data", data, "--out", withAudio, "--audio"); code != 0 || !strings.Contains(errOut, "1 recordings") {
		t.Fatalf("backup --audio: exit %d\n%s", code, errOut)
	}
	if b, err := os.ReadFile(filepath.Join(withAudio+".recordings", "u1", "c1", "1700000000000.ogg")); err != nil || string(b) != "OggS and the rest" {
		t.Fatalf("the recording in the backup: %q %v", b, err)
	}
	fresh := t.TempDir()
	if _, errOut, code := cli(t, "restore", withAudio, "--data", fresh); code != 0 || !strings.Contains(errOut, "1 recordings restored") {
		t.Fatalf("restore: exit %d\n%s", code, errOut)
	}
	if b, err := os.ReadFile(filepath.Join(fresh, rec)); err != nil || string(b) != "OggS and the rest" {
		t.Fatalf("the restored recording: %q %v", b, err)
	}
}

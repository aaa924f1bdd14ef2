package main

import (
	"encoding/binary"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hearth-appliance/hearth/store"
)

// TestRestartFromTheDatabaseHeader: a clean stop leaves the schema's
// version in the database file's header, where a restart reads it to
// serve before the store's connections open; a file whose header says
// otherwise (a build that did not stamp it) is made ready before serving
// and stamped; a file that is not a database stops the start.
func TestRestartFromTheDatabaseHeader(t *testing.T) {
	t.Parallel()
	latest, err := store.LatestVersion()
	if err != nil {
		t.Fatal(err)
	}
	data := t.TempDir()
	dbFile := filepath.Join(data, store.FileName)
	userVersion := func() uint32 {
		t.Helper()
		b, err := os.ReadFile(dbFile)
		if err != nil || len(b) < 100 {
			t.Fatalf("read the database header: %v", err)
		}
		return binary.BigEndian.Uint32(b[60:64])
	}
	setUserVersion := func(v uint32) {
		t.Helper()
		f, err := os.OpenFile(dbFile, os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteAt(binary.BigEndian.AppendUint32(nil, v), 60); err != nil {
			t.Fatal(err)
		}
	}

	srv := startServe(t, data)
	uid := mustCLI(t, "users", "add", "--data", data, "--name", "Ada")
	srv.stop(t)
	if got := userVersion(); got != uint32(latest) {
		t.Fatalf("after a first start the header's user_version is %d, want %d", got, latest)
	}
	for _, stamp := range []uint32{uint32(latest), 0} {
		setUserVersion(stamp)
		srv := startServe(t, data)
		if code, body := srv.call(t, http.MethodGet, "/healthz", "", ""); code != http.StatusOK || !strings.Contains(body, `"model"`) {
			t.Fatalf("restart with user_version %d: /healthz %d %s, want 200 with the index's model once serving is logged", stamp, code, body)
		}
		if out := mustCLI(t, "users", "list", "--data", data); !strings.Contains(out, uid) {
			t.Fatalf("restart with user_version %d: users list %q lacks %s", stamp, out, uid)
		}
		srv.stop(t)
		if got := userVersion(); got != uint32(latest) {
			t.Errorf("restart with user_version %d: after it, %d, want %d", stamp, got, latest)
		}
	}

	junk := t.TempDir()
	if err := os.WriteFile(filepath.Join(junk, store.FileName), []byte(strings.Repeat("not a database ", 20)), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := cli(t, "serve", "--data", junk, "--addr", "127.0.0.1:0"); code == 0 || !strings.Contains(errOut, "not a database") {
		t.Fatalf("serve on a file that is not a database: exit %d: %s", code, errOut)
	}
}

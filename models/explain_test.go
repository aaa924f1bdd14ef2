package models_test

import (
	"context"
	"net"
	"path/filepath"
	"testing"

	"github.com/hearth-appliance/hearth/models"
)

// TestAFailedPullIsASentence: each way a pull fails, for real, comes back
// as one sentence saying what to do, never the dialer's own words; a
// connection that cannot be made is not retried.
func TestAFailedPullIsASentence(t *testing.T) {
	t.Parallel()
	good := weights(50_000)
	_, s256 := digest(good)
	srv, requests, _ := server(t, map[string][]byte{"ggml-m.bin": good, "ggml-bad.bin": good}, false)
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedURL := "http://" + closed.Addr().String()
	closed.Close()
	m := models.Model{Name: "m", Size: int64(len(good)), SHA256: s256}
	for _, tc := range []struct {
		name   string
		mirror string
		model  models.Model
		want   string
	}{
		{"offline", "", models.Model{Name: "m", Size: m.Size, SHA256: s256, URL: "http://models.hearth.invalid/ggml-m.bin"},
			"No internet connection: pull from a mirror with --models-url."},
		{"a mirror that does not answer", closedURL, m, "The mirror " + closed.Addr().String() + " cannot be reached: check --models-url."},
		{"a mirror without the file", srv.URL, models.Model{Name: "missing", Size: m.Size, SHA256: s256},
			srv.Listener.Addr().String() + " has no such file (404 Not Found): check --models-url."},
		{"not the catalog's file", srv.URL, models.Model{Name: "bad", Size: m.Size, SHA256: "00" + s256[2:]},
			"The download did not match the catalog's checksum and was removed: pull it again."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := &models.Store{Dir: filepath.Join(t.TempDir(), "models"), BaseURL: tc.mirror, Catalog: []models.Model{tc.model}}
			before := requests.Load()
			err := st.Pull(context.Background(), tc.model, nil)
			if err == nil {
				t.Fatal("pulled")
			}
			if got := st.Explain(tc.model, err); got != tc.want {
				t.Fatalf("%q\nwant %q (the error: %v)", got, tc.want, err)
			}
			if tc.mirror == srv.URL && requests.Load()-before != 1 {
				t.Fatalf("%d requests for one pull that cannot succeed", requests.Load()-before)
			}
		})
	}
}

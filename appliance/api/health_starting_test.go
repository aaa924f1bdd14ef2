package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/api"
	"github.com/hearth-appliance/hearth/appliance/authn"
	"github.com/hearth-appliance/hearth/appliance/conversation"
	"github.com/hearth-appliance/hearth/appliance/idtoken"
	"github.com/hearth-appliance/hearth/appliance/records"
	"github.com/hearth-appliance/hearth/store"
)

// TestHealthSaysTheIndexIsStarting: until the search index has started (a
// restart answers /healthz while the store's connections open) /healthz
// says so, with no share: a client waiting for the index to catch up must
// not read a share nobody has counted as "all embedded".
func TestHealthSaysTheIndexIsStarting(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db, err := store.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	signer, err := idtoken.LoadOrCreate(dir)
	if err != nil {
		t.Fatal(err)
	}
	auth := authn.New(db, signer, nil, nil)
	t.Cleanup(auth.Close)
	for _, tc := range []struct {
		name     string
		progress appliance.IndexProgress
		want     map[string]any
	}{
		{"not started", appliance.IndexProgress{}, map[string]any{"starting": true}},
		{"started", appliance.IndexProgress{Model: "m", Embedded: 1, Total: 4},
			map[string]any{"model": "m", "embedded": 0.25, "reembedding": false}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, err := api.New(api.Deps{
				Config: appliance.DefaultConfig(), Store: db, Auth: auth,
				Conversations: conversation.New(conversation.Deps{Store: db}),
				Records:       records.New(records.Deps{Store: db}),
				IndexProgress: func() appliance.IndexProgress { return tc.progress },
			})
			if err != nil {
				t.Fatal(err)
			}
			rec := httptest.NewRecorder()
			srv.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/healthz", nil))
			if rec.Code != http.StatusOK {
				t.Fatalf("/healthz: %d %s", rec.Code, rec.Body)
			}
			var got struct {
				Status string         `json:"status"`
				Index  map[string]any `json:"search_index"`
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
				t.Fatal(err)
			}
			if got.Status != "ok" {
				t.Errorf("status %q, want ok", got.Status)
			}
			if d := cmp.Diff(tc.want, got.Index); d != "" {
				t.Errorf("search_index (-want +got):\n%s", d)
			}
		})
	}
}

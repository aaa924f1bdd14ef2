package main

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance/api"
	"github.com/hearth-appliance/hearth/models"
)

// TestModelPullerSaysAlreadyDownloading: a second pull of a model still
// downloading reaches the console API as api.ErrModelPulling (its 409),
// and a name outside the catalog as another error (its 404).
func TestModelPullerSaysAlreadyDownloading(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	mirror := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-release // hold the download until the second pull was refused
		http.Error(w, "gone", http.StatusNotFound)
	}))
	defer mirror.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	store := &models.Store{Dir: filepath.Join(t.TempDir(), "models"), BaseURL: mirror.URL,
		Catalog: []models.Model{{Name: "tiny", Size: 1000}}}
	p := modelPuller{Puller: &models.Puller{Store: store, Ctx: ctx}}

	if err := p.Start("tiny"); err != nil {
		t.Fatal(err)
	}
	if err := p.Start("tiny"); !errors.Is(err, api.ErrModelPulling) {
		t.Fatalf("second pull: %v, want api.ErrModelPulling", err)
	}
	if err := p.Start("nope"); err == nil || errors.Is(err, api.ErrModelPulling) {
		t.Fatalf("unknown model: %v", err)
	}
	states, ok := p.States().([]modelRow)
	if !ok || len(states) != 1 || states[0].Pull == nil || !states[0].Pull.Running {
		t.Fatalf("states while pulling: %#v", p.States())
	}
	close(release)
	for { // let the download end before the folder goes
		if st := p.States().([]modelRow); !st[0].Pull.Running {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
}

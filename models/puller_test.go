package models_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/models"
)

func TestPullerReportsProgressAndTheResult(t *testing.T) {
	t.Parallel()
	good := weights(200_000)
	g1, g256 := digest(good)
	ok := models.Model{Name: "good", Size: int64(len(good)), SHA1: g1, SHA256: g256}
	bad := models.Model{Name: "bad", Size: int64(len(good)), SHA256: "00" + g256[2:]}
	srv, _, _ := server(t, map[string][]byte{ok.File(): good, bad.File(): good}, false)
	st := &models.Store{Dir: filepath.Join(t.TempDir(), "models"), BaseURL: srv.URL, Catalog: []models.Model{ok, bad}}
	p := &models.Puller{Store: st, Ctx: context.Background()}

	if err := p.Start("nope"); err == nil {
		t.Fatal("a model outside the catalog was accepted")
	}
	for _, name := range []string{"good", "bad"} {
		if err := p.Start(name); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		states := p.States()
		if len(states) != 2 {
			t.Fatalf("states: %+v", states)
		}
		if !states[0].Pull.Running && !states[1].Pull.Running {
			g, b := states[0], states[1]
			if !g.Pulled || g.Pull.Err != "" || g.Pull.Done != g.Size {
				t.Errorf("good model: %+v %+v", g, g.Pull)
			}
			if b.Pulled || b.Pull.Err == "" {
				t.Errorf("a model failing its checksum: %+v %+v", b, b.Pull)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("downloads did not finish")
		}
		time.Sleep(10 * time.Millisecond)
	}
	// A finished pull may start again; a running one may not.
	if err := p.Start("good"); err != nil {
		t.Fatal(err)
	}
	if err := p.Start("good"); err != nil && !errors.Is(err, models.ErrPulling) {
		t.Fatal(err)
	}
	for p.States()[0].Pull.Running { // let it end before the folder goes
		time.Sleep(10 * time.Millisecond)
	}
}

// A speaker model keeps its own file name, and comes from the owner's
// mirror when one is set rather than from its publisher.
func TestPullSpeakerModelFromMirror(t *testing.T) {
	t.Parallel()
	net := weights(150_000)
	_, s256 := digest(net)
	m := models.Model{Name: "voice-net", Kind: models.KindSpeaker, Size: int64(len(net)), SHA256: s256,
		FileName: "voice_net.onnx", URL: "https://publisher.invalid/resolve/abc/voice_net.onnx"}
	srv, _, _ := server(t, map[string][]byte{"voice_net.onnx": net}, false)
	st := &models.Store{Dir: filepath.Join(t.TempDir(), "models"), BaseURL: srv.URL, Catalog: []models.Model{m}}
	if err := st.Pull(context.Background(), m, nil); err != nil {
		t.Fatal(err)
	}
	if !st.Present(m) || filepath.Base(st.Path(m)) != "voice_net.onnx" {
		t.Fatalf("pulled to %s", st.Path(m))
	}
}

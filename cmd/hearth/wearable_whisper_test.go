package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hearth-appliance/hearth/cmd/hearth/internal/omiapp"
	"github.com/hearth-appliance/hearth/localstt/ggmltest"
)

// TestWearableWhisperRouteKeepsTheLastWords: the whisper route hears out a
// recording that ends right after speech, like PocketSphinx does. With
// HEARTH_TEST_WHISPER_MODEL naming a real model every sentence must be in
// the stored transcript; with the generated model (random weights, it
// hears noise) what is checked is the path: the session answers the
// close after hearing out its route, and what the app was sent is what
// was stored.
func TestWearableWhisperRouteKeepsTheLastWords(t *testing.T) {
	t.Parallel()
	needWhisperRoute(t)
	data := t.TempDir()
	models := filepath.Join(data, "models")
	if err := os.MkdirAll(models, 0o700); err != nil {
		t.Fatal(err)
	}
	real := os.Getenv("HEARTH_TEST_WHISPER_MODEL")
	if real != "" {
		b, err := os.ReadFile(real)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(models, filepath.Base(real)), b, 0o600); err != nil {
			t.Fatal(err)
		}
	} else if err := ggmltest.Write(filepath.Join(models, "ggml-tiny.en.bin"), ggmltest.Tiny, 7); err != nil {
		t.Fatal(err)
	}
	srv := startServe(t, data, append(wearableEnv, "HEARTH_STT_ROUTES=whisper")...)
	for _, codec := range []string{"pcm16", "opus_fs320"} {
		t.Run(codec, func(t *testing.T) {
			if real == "" && codec != "pcm16" {
				// The generated model hears nothing: after three stretches
				// of speech the route is found deaf (hearing.go). Each
				// codec gets a fresh appliance, so that this test stays
				// about the wiring.
				srv.stop(t)
				srv = startServe(t, data, append(wearableEnv, "HEARTH_STT_ROUTES=whisper")...)
			}
			o := newOwner(t, srv, data, "Ada "+codec)
			sp := compose(t, 0.3,
				said{text: "i will send the numbers to the finance team tomorrow", pause: 1.0},
				said{text: "the car needs new tires before winter"})
			c := o.dial(t, omiapp.Options{Codec: codec})
			st := c.State()
			if ready := st.Events("service_status"); len(ready) == 0 || ready[0].Field("provider") != "whisper" {
				t.Fatalf("not on the whisper route: %s", messages(st))
			}
			streamAll(t, c, wearableFrames(t, codec, sp.pcm), 2)
			closeAndSettle(c)
			st = c.State()
			if st.CloseCode != 1000 {
				t.Fatalf("closed %d %q after the app's close", st.CloseCode, st.CloseText)
			}
			stored := o.stored(t, o.endRecording(t))
			if real != "" {
				checkWords(t, sp, []string{sp.text(0), sp.text(1)}, st, stored, false)
				return
			}
			if err := omiapp.SameText(st.View(), stored); err != nil {
				t.Fatalf("the app was sent other text than was stored: %v\n%s", err, report(sp, st, stored))
			}
			if strings.Contains(srv.logs.String(), "did not finish in time") {
				t.Fatalf("the route was not heard out:\n%s", srv.logs)
			}
		})
	}
}

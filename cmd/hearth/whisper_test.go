package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/localstt"
	"github.com/hearth-appliance/hearth/localstt/ggmltest"
)

// TestWhisperRouteIsPreferredOncePulled: a model in DATA/models puts the
// whisper route first; --stt-routes reorders it. (The generated model's
// weights are random: this is about the wiring, not what it hears.)
func TestWhisperRouteIsPreferredOncePulled(t *testing.T) {
	t.Parallel()
	needWhisperRoute(t)
	data := t.TempDir()
	if err := os.MkdirAll(filepath.Join(data, "models"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := ggmltest.Write(filepath.Join(data, "models", "ggml-tiny.en.bin"), ggmltest.Tiny, 7); err != nil {
		t.Fatal(err)
	}
	srv := startServe(t, data)
	uid := mustCLI(t, "users", "add", "--data", data, "--name", "Ada")
	c := dialListen(t, srv.base, appQuery(uid, "pcm16", 120, ""), ownerToken(t, data, uid))
	ready := event(c.until(10*time.Second, "ready", func(m wsMsg) bool { return event(m, "service_status") != nil }), "service_status")
	if ready["provider"] != "whisper" {
		t.Fatalf("ready %v, want the whisper route first", ready)
	}
	if !strings.Contains(srv.logs.String(), `"msg":"whisper model loaded","model":"tiny.en"`) {
		t.Fatalf("the log does not name the model:\n%s", srv.logs)
	}
	srv.stop(t)

	srv = startServe(t, data, "HEARTH_STT_ROUTES=pocketsphinx,whisper")
	c = dialListen(t, srv.base, appQuery(uid, "pcm16", 120, ""), ownerToken(t, data, uid))
	ready = event(c.until(10*time.Second, "ready", func(m wsMsg) bool { return event(m, "service_status") != nil }), "service_status")
	if want := map[bool]string{true: "pocketsphinx", false: "whisper"}[pocketsphinxBuilt()]; ready["provider"] != want {
		t.Fatalf("ready %v, want %s first", ready, want)
	}
}

// needWhisperRoute fails under make test (which builds whisper.cpp in) and
// skips elsewhere when this build has no whisper route.
func needWhisperRoute(t *testing.T) {
	t.Helper()
	if localstt.Available {
		return
	}
	if os.Getenv("HEARTH_REQUIRE_E2E_TOOLS") != "" {
		t.Fatal("whisper.cpp is not built in (make build builds it)")
	}
	t.Skip("whisper.cpp is not built in")
}

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hearth-appliance/hearth/localstt/ggmltest"
)

// TestADeafWhisperModelHandsOverAOneUtteranceSession: on a fresh server
// whose first route is a model that yields no words (the generated one),
// a live session of a single utterance, ended as soon as it is sent, is
// too short for the model to be judged deaf (three missed stretches). Its
// audio still goes to the next route when the recording ends: the
// processed conversation holds PocketSphinx's words, not nothing.
func TestADeafWhisperModelHandsOverAOneUtteranceSession(t *testing.T) {
	needWhisperRoute(t)
	needPocketSphinx(t)
	data := t.TempDir()
	if err := os.MkdirAll(filepath.Join(data, "models"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := ggmltest.Write(filepath.Join(data, "models", "ggml-tiny.en.bin"), ggmltest.Tiny, 7); err != nil {
		t.Fatal(err)
	}
	srv := startServe(t, data, "HEARTH_STT_ROUTES=whisper,pocketsphinx")
	uid := mustCLI(t, "users", "add", "--data", data, "--name", "Ada")
	key := mustCLI(t, "keys", "create", "--data", data, "--user", uid, "--kind", "dev", "--scopes", "conversations:read")

	out, errOut, code := cli(t, "listen", "--file", speechWAV(t, heardPhrase), "--url", srv.base, "--data", data, "--user", uid, "--end")
	if code != 0 || !strings.Contains(out, "· ready whisper") || !strings.Contains(out, "· processed:") {
		t.Fatalf("listen: exit %d\n%s\n%s", code, out, errOut)
	}
	code, body := srv.call(t, "GET", "/v1/dev/user/conversations?include_transcript=true&limit=10", key, "")
	if code != 200 || !strings.Contains(strings.ToLower(body), "report to my manager") {
		t.Fatalf("the conversation has not the words said: %d %s\nlisten:\n%s", code, body, out)
	}
	srv.stop(t)
	if logs := srv.logs.String(); !strings.Contains(logs, `"msg":"speech route heard no words: the session goes on with the next route`) {
		t.Fatalf("the hand-over is not in the log:\n%s", logs)
	}
}

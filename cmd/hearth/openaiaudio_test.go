package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestOpenAIAudioClient drives OpenAI's speech API on `hearth serve` with
// the official openai npm client (testdata/mcp-client, pinned in its
// package-lock.json): Festival speech heard through PocketSphinx in every
// response format, streamed, translated, and the errors the client reads.
func TestOpenAIAudioClient(t *testing.T) {
	t.Parallel()
	needPocketSphinx(t)
	dir, _ := filepath.Abs("testdata/mcp-client")
	node, err := exec.LookPath("node")
	_, modErr := os.Stat(filepath.Join(dir, "node_modules", "openai"))
	if err != nil || modErr != nil {
		if os.Getenv("HEARTH_REQUIRE_E2E_TOOLS") != "" {
			t.Fatalf("the openai client is not installed (node: %v, modules: %v); run make mcp-client", err, modErr)
		}
		t.Skip("openai npm client not installed; make test installs it")
	}
	wav := speechWAV(t, heardPhrase)
	data := filepath.Join(t.TempDir(), "data")
	uid := mustCLI(t, "users", "add", "--data", data, "--name", "Ada Lovelace")
	sttKey := mustCLI(t, "keys", "create", "--data", data, "--user", uid, "--kind", "stt")
	srv := startServe(t, data, "HEARTH_STT_ROUTES=pocketsphinx")

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "openai-audio.mjs", srv.base+"/v1", sttKey, wav, heardPhrase)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	t.Logf("openai client:\n%s", out)
	if err != nil || !strings.Contains(string(out), "PASS openai audio client") {
		t.Fatalf("openai client failed: %v\nserver log:\n%s", err, srv.logs)
	}
}

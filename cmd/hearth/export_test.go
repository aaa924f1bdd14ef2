package main

import (
	"strings"
	"testing"
)

// TestExportNamesPeople: the readable export names speakers as the API and
// the console do (the people the owner named, "Speaker N" otherwise), not
// by the recognizer's labels.
func TestExportNamesPeople(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	srv := startServe(t, data)
	uid := mustCLI(t, "users", "add", "--data", data, "--name", "Ada")
	namePeople(t, srv, data, uid)
	out, errOut, code := cli(t, "export", "--data", data, "--user", uid)
	if code != 0 || !strings.Contains(out, "> **Lucía** (00:00.5): Shall we plant the tomatoes on Saturday?") ||
		!strings.Contains(out, "> **Lu** (") || strings.Contains(out, "SPEAKER_0") {
		t.Fatalf("export: exit %d %s\n%s", code, errOut, out)
	}
}

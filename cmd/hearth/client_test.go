package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestCommandLineClients: `hearth listen --file` and `hearth transcribe`
// against a real hearth serve, as a script would use them.
func TestCommandLineClients(t *testing.T) {
	t.Parallel()
	speech := speechWAV(t, "Call the landlord about the heating.")
	data := t.TempDir()
	srv := startServe(t, data, writeScript(t, `{"utterances":[{"text":"Call the landlord about the heating."}]}`))
	uid := mustCLI(t, "users", "add", "--data", data, "--name", "Ada")
	token := mustCLI(t, "token", "--data", data, "--user", uid)

	// On the box itself: a token is minted from the data directory.
	out, errOut, code := cli(t, "listen", "--file", speech, "--url", srv.base, "--data", data, "--user", uid, "--speed", "4", "--end")
	if code != 0 || !strings.Contains(out, "SPEAKER_00: Call the landlord about the heating.") || !strings.Contains(out, "· processed:") ||
		!strings.Contains(out, "· ready scripted") {
		t.Fatalf("listen: exit %d\n%s\n%s", code, out, errOut)
	}
	// From elsewhere, with a token, as JSON lines, narrow-band.
	out, errOut, code = cli(t, "listen", "--file", speech, "--url", srv.base, "--token", token, "--codec", "pcm8", "--speed", "0", "--json")
	var seg struct {
		Type    string
		Segment struct{ Text string }
	}
	found := false
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if json.Unmarshal([]byte(line), &seg) != nil {
			t.Fatalf("not a JSON line: %q", line)
		}
		found = found || seg.Type == "segment" && seg.Segment.Text == "Call the landlord about the heating."
	}
	if code != 0 || !found {
		t.Fatalf("listen --json: exit %d\n%s\n%s", code, out, errOut)
	}
	// Opus, as the app's "opus" codec sends it (where the build has libopus).
	out, errOut, code = cli(t, "listen", "--file", speech, "--url", srv.base, "--token", token, "--codec", "opus", "--speed", "4")
	switch {
	case hasOpusEncoder && (code != 0 || !strings.Contains(out, "Call the landlord about the heating.")):
		t.Fatalf("listen --codec opus: exit %d\n%s\n%s", code, out, errOut)
	case !hasOpusEncoder && os.Getenv("HEARTH_REQUIRE_E2E_TOOLS") != "":
		t.Fatal("this build has no Opus encoder (libopus-dev; make test links it)")
	case !hasOpusEncoder && (code != 2 || !strings.Contains(errOut, "no Opus encoder")):
		t.Fatalf("listen --codec opus without libopus: exit %d\n%s", code, errOut)
	}

	// The live socket's own scheme names the same appliance.
	out, errOut, code = cli(t, "listen", "--file", speech, "--url", strings.Replace(srv.base, "http://", "ws://", 1)+"/v4/listen", "--token", token, "--speed", "0")
	if code != 0 || !strings.Contains(out, "Call the landlord about the heating.") {
		t.Fatalf("listen --url ws://: exit %d\n%s\n%s", code, out, errOut)
	}

	// A device key, as a wearable holds: it opens the live socket for the
	// user named with --user, and only with it.
	deviceKey := mustCLI(t, "keys", "create", "--data", data, "--user", uid, "--kind", "stt")
	out, errOut, code = cli(t, "listen", "--file", speech, "--url", srv.base, "--token", deviceKey, "--user", uid, "--speed", "0")
	if code != 0 || !strings.Contains(out, "SPEAKER_00: Call the landlord about the heating.") {
		t.Fatalf("listen with a device key: exit %d\n%s\n%s", code, out, errOut)
	}
	if _, errOut, code = cli(t, "listen", "--file", speech, "--url", srv.base, "--token", deviceKey, "--speed", "0"); code != 2 || !strings.Contains(errOut, "a device key needs --user UID") {
		t.Fatalf("listen with a device key and no --user: exit %d %q", code, errOut)
	}
	// Ending a recording takes an ID token: said before anything is sent.
	if _, errOut, code = cli(t, "listen", "--file", speech, "--url", srv.base, "--token", deviceKey, "--user", uid, "--end"); code != 2 || !strings.Contains(errOut, "--end needs an ID token") {
		t.Fatalf("listen --end with a device key: exit %d %q", code, errOut)
	}

	out, errOut, code = cli(t, "transcribe", speech, "--url", srv.base, "--token", token)
	if code != 0 || !strings.Contains(out, "] SPEAKER_00: Call the landlord about the heating.") {
		t.Fatalf("transcribe: exit %d\n%s\n%s", code, out, errOut)
	}
	out, _, code = cli(t, "transcribe", speech, "--url", srv.base, "--token", token, "--json", "--diarize=false")
	if code != 0 || !strings.Contains(out, `"text":"Call the landlord about the heating."`) || strings.Contains(out, `"speaker"`) {
		t.Fatalf("transcribe --json: exit %d\n%s", code, out)
	}

	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"listen", "--url", srv.base, "--token", token}, 2, "--file is required"},
		{[]string{"listen", "--file", speech, "--url", srv.base, "--token", "nonsense"}, 2, "--token"},
		{[]string{"listen", "--file", speech, "--url", srv.base, "--token", token, "--codec", "mp3"}, 2, "pcm16, pcm8 or opus"},
		{[]string{"transcribe", "--url", srv.base, "--token", token}, 2, "name the recording"},
		{[]string{"transcribe", speech, "--url", srv.base}, 2, "--token"},
		// A developer key at hand: the message names the command that
		// makes the right credential.
		{[]string{"transcribe", speech, "--url", srv.base, "--token", mustCLI(t, "keys", "create", "--data", data, "--user", uid, "--kind", "dev")}, 2, "hearth token --data DIR --user UID"},
		{[]string{"listen", "--file", speech, "--url", "ftp://box", "--token", token}, 2, "not an http(s) or ws(s) address"},
	} {
		_, errOut, code := cli(t, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d %q, want %d %q", tc.args, code, errOut, tc.code, tc.want)
		}
	}
	// Another appliance refuses this one's token; without a speech route
	// it says so.
	bareData := t.TempDir()
	bare := startServe(t, bareData, "HEARTH_STT_ROUTES=none")
	_, errOut, code = cli(t, "transcribe", speech, "--url", bare.base, "--token", token)
	if code != 1 || !strings.Contains(errOut, "401") {
		t.Fatalf("another appliance's token: exit %d %q", code, errOut)
	}
	bareToken := mustCLI(t, "token", "--data", bareData, "--user", mustCLI(t, "users", "add", "--data", bareData, "--name", "Bo"))
	_, errOut, code = cli(t, "transcribe", speech, "--url", bare.base, "--token", bareToken)
	if code != 1 || !strings.Contains(errOut, "503 Service Unavailable: Transcription service not configured") {
		t.Fatalf("no speech route: exit %d %q", code, errOut)
	}
}

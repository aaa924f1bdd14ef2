package main

import (
	"strings"
	"testing"
	"time"
)

// TestListenSaysWhatIsNotServed: the routes out of the box serve mono
// only (PocketSphinx English, whisper the other languages); stereo is
// refused as stereo and an unknown language as a language, both 1008 as
// the contract's refusals.
func TestListenSaysWhatIsNotServed(t *testing.T) {
	t.Parallel()
	needPocketSphinx(t)
	data := t.TempDir()
	srv := startServe(t, data)
	uid := mustCLI(t, "users", "add", "--data", data, "--name", "Ada")
	token := ownerToken(t, data, uid)
	for _, tc := range []struct{ name, query, reason string }{
		{"stereo", appQuery(uid, "pcm16", 120, "channels=2"), "Only mono audio is supported: channels=2"},
		{"french stereo", strings.Replace(appQuery(uid, "pcm16", 120, "channels=2"), "language=en", "language=fr", 1), "Only mono audio is supported: channels=2"},
		{"unknown language", strings.Replace(appQuery(uid, "pcm16", 120, ""), "language=en", "language=xx", 1), "The language is not supported, xx"},
		{"unknown language stereo", strings.Replace(appQuery(uid, "pcm16", 120, "channels=2"), "language=en", "language=xx", 1), "The language is not supported, xx"},
	} {
		c := dialListen(t, srv.base, tc.query, token)
		m := c.until(10*time.Second, "close", func(m wsMsg) bool { return m.closeCode != 0 })
		if m.closeCode != 1008 || m.closeText != tc.reason {
			t.Errorf("%s: close %d %q, want 1008 %q", tc.name, m.closeCode, m.closeText, tc.reason)
		}
	}
}

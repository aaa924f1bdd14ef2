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

// TestListenStreamsPerUser: with two speech streams per user, a member's
// third session is refused with the reason, their closed session gives its
// stream back, and the owner is never refused: three sessions at once,
// and the last one transcribes.
func TestListenStreamsPerUser(t *testing.T) {
	t.Parallel()
	needPocketSphinx(t)
	data := t.TempDir()
	srv := startServe(t, data, "HEARTH_LISTEN_USER_STREAMS=2")
	owner := mustCLI(t, "users", "add", "--data", data, "--name", "Ada")
	member := mustCLI(t, "users", "add", "--data", data, "--name", "Bob")
	setPassword(t, data, owner, "correct horse battery")
	setPassword(t, data, member, "another long password")
	ownerTok, memberTok := ownerToken(t, data, owner), ownerToken(t, data, member)
	open := func(uid, token string) (*wsClient, map[string]any, wsMsg) {
		c := dialListen(t, srv.base, appQuery(uid, "pcm16", 120, ""), token)
		m := c.until(10*time.Second, "ready or close", func(m wsMsg) bool { return event(m, "service_status") != nil || m.closeCode != 0 })
		return c, event(m, "service_status"), m
	}
	var members []*wsClient
	for range 2 {
		c, ready, m := open(member, memberTok)
		if ready == nil || ready["provider"] != "pocketsphinx" {
			t.Fatalf("member session %d: %v %d %q", len(members)+1, ready, m.closeCode, m.closeText)
		}
		members = append(members, c)
	}
	_, ready, m := open(member, memberTok)
	const refusal = "Too many live sessions: this account already streams speech in 2, the limit per user"
	if ready != nil || m.closeCode != 1008 || m.closeText != refusal {
		t.Fatalf("the member's third session: %v, close %d %q", ready, m.closeCode, m.closeText)
	}
	var last *wsClient
	for i := range 3 {
		c, ready, m := open(owner, ownerTok)
		if ready == nil || ready["provider"] != "pocketsphinx" {
			t.Fatalf("owner session %d: %v %d %q", i+1, ready, m.closeCode, m.closeText)
		}
		last = c
	}
	go last.stream(encodeFrames(t, "pcm16", speechWAV(t, heardPhrase)), 4)
	segs := segmentsOf(last.until(30*time.Second, "segments", func(m wsMsg) bool { return segmentsOf(m) != nil }))
	if segs[0]["text"] != liveHeardPhrase {
		t.Fatalf("the owner's third session heard %v", segs)
	}
	// A member session that ends gives its stream back.
	members[0].conn.Close()
	var again map[string]any
	for deadline := time.Now().Add(10 * time.Second); again == nil && time.Now().Before(deadline); {
		_, again, _ = open(member, memberTok)
	}
	if again == nil || again["provider"] != "pocketsphinx" {
		t.Fatalf("no member session after one ended: %v", again)
	}
}

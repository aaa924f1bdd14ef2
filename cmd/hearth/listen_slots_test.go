package main

import (
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
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
	// A minute's audio gap: these silent sessions keep their streams.
	srv := startServe(t, data, "HEARTH_LISTEN_USER_STREAMS=2", "HEARTH_LISTEN_AUDIO_GAP=1m")
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

// TestListenQuietSessionsGiveTheirStreamBack: one stream per user. A
// session that sends no audio gives its stream back, so the same user's
// next session opens; while that one streams, the quiet one's speech is
// refused with the reason; another user still gets a stream; and once the
// second session has been quiet for a while, it speaks again and is heard.
func TestListenQuietSessionsGiveTheirStreamBack(t *testing.T) {
	t.Parallel()
	needPocketSphinx(t)
	data := t.TempDir()
	const gap = time.Second
	srv := startServe(t, data, "HEARTH_LISTEN_USER_STREAMS=1", "HEARTH_LISTEN_AUDIO_GAP="+gap.String())
	bob := mustCLI(t, "users", "add", "--data", data, "--name", "Bob")
	carol := mustCLI(t, "users", "add", "--data", data, "--name", "Carol")
	bobTok, carolTok := ownerToken(t, data, bob), ownerToken(t, data, carol)
	open := func(uid, token string) (*wsClient, map[string]any) {
		c := dialListen(t, srv.base, appQuery(uid, "pcm16", 120, ""), token)
		m := c.until(10*time.Second, "ready or close", func(m wsMsg) bool { return event(m, "service_status") != nil || m.closeCode != 0 })
		return c, event(m, "service_status")
	}
	speech := encodeFrames(t, "pcm16", speechWAV(t, heardPhrase))
	heard := func(c *wsClient, who string) {
		t.Helper()
		go c.stream(speech, 4)
		segs := segmentsOf(c.until(30*time.Second, "segments", func(m wsMsg) bool { return segmentsOf(m) != nil }))
		if segs[0]["text"] != liveHeardPhrase {
			t.Fatalf("%s heard %v", who, segs)
		}
	}

	quiet, ready := open(bob, bobTok)
	if ready == nil {
		t.Fatal("Bob's first session refused")
	}
	// Bob's second session opens once the first, quiet, gave its stream back.
	var second *wsClient
	for deadline := time.Now().Add(15 * time.Second); second == nil && time.Now().Before(deadline); {
		if c, ready := open(bob, bobTok); ready != nil {
			second = c
		}
	}
	if second == nil {
		t.Fatal("the quiet session never gave its stream back")
	}
	// The second streams silence (audio all the same): it keeps its stream.
	stop, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		silence := make([]byte, 640)
		for {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
				second.conn.WriteMessage(websocket.BinaryMessage, silence)
			}
		}
	}()
	go quiet.stream(speech, 4)
	m := quiet.until(30*time.Second, "close", func(m wsMsg) bool { return m.closeCode != 0 })
	if m.closeCode != 1008 || m.closeText != "Too many live sessions: this account already streams speech in 1, the limit per user" {
		t.Fatalf("the quiet session's speech while Bob's other streams: close %d %q", m.closeCode, m.closeText)
	}
	// Carol is not held back by Bob's cap.
	c, ready := open(carol, carolTok)
	if ready == nil {
		t.Fatal("Carol's session refused")
	}
	heard(c, "Carol")
	// The second goes quiet, gives its stream back, and is heard when it
	// speaks again.
	close(stop)
	<-stopped
	time.Sleep(3 * gap)
	heard(second, "Bob's second session after a quiet spell")
}

// TestListenKeepsAStreamForTheOwner: with no cap per user, the member's
// sessions take every PocketSphinx stream but one; the next is refused,
// and the owner's session still opens and is heard.
func TestListenKeepsAStreamForTheOwner(t *testing.T) {
	t.Parallel()
	needPocketSphinx(t)
	data := t.TempDir()
	srv := startServe(t, data, "HEARTH_LISTEN_USER_STREAMS=0", "HEARTH_LISTEN_AUDIO_GAP=1m")
	owner := mustCLI(t, "users", "add", "--data", data, "--name", "Ada")
	member := mustCLI(t, "users", "add", "--data", data, "--name", "Bob")
	setPassword(t, data, owner, "correct horse battery")
	memberTok := ownerToken(t, data, member)
	held := 0
	for ; ; held++ {
		if held > 64 {
			t.Fatal("the member's sessions were never refused")
		}
		c := dialListen(t, srv.base, appQuery(member, "pcm16", 120, ""), memberTok)
		m := c.until(10*time.Second, "ready or close", func(m wsMsg) bool { return event(m, "service_status") != nil || m.closeCode != 0 })
		if event(m, "service_status") != nil {
			continue
		}
		if m.closeCode != 1008 || m.closeText != "Every speech stream is in use (the last is kept for the owner): try again later" {
			t.Fatalf("after %d member sessions: close %d %q", held, m.closeCode, m.closeText)
		}
		break
	}
	t.Logf("the member held %d streams", held)
	if held == 0 {
		t.Fatal("the member got no stream at all")
	}
	c := dialListen(t, srv.base, appQuery(owner, "pcm16", 120, ""), ownerToken(t, data, owner))
	ready := event(c.until(10*time.Second, "ready", func(m wsMsg) bool { return event(m, "service_status") != nil || m.closeCode != 0 }), "service_status")
	if ready == nil || ready["provider"] != "pocketsphinx" {
		t.Fatalf("the owner's session: %v", ready)
	}
	go c.stream(encodeFrames(t, "pcm16", speechWAV(t, heardPhrase)), 4)
	segs := segmentsOf(c.until(30*time.Second, "segments", func(m wsMsg) bool { return segmentsOf(m) != nil }))
	if segs[0]["text"] != liveHeardPhrase {
		t.Fatalf("the owner heard %v", segs)
	}
}

package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// TestBadAACKeepsStderrJSON: a wearable (or an attacker) sends 2,000 AAC
// frames that are an ADTS header over noise. libavcodec complains about
// each; through the binary run with --log-format json every line on
// stderr is still a JSON record (the complaints are debug records, not raw
// "[aac @ 0x…]" lines), the session still decodes the real speech sent
// after the noise, closes cleanly, and the process keeps serving.
func TestBadAACKeepsStderrJSON(t *testing.T) {
	t.Parallel()
	wav := speechWAV(t, "Remind me to water the tomatoes tonight.")
	data := t.TempDir()
	// Claimed from the shell before serving: an unclaimed appliance prints
	// its setup code to stderr as text on purpose (never into the log).
	uid := mustCLI(t, "users", "add", "--data", data, "--name", "Ada")
	setPassword(t, data, uid, "correct horse battery")
	srv := startServe(t, data, "HEARTH_MDNS=false", "HEARTH_LOG_LEVEL=debug",
		writeScript(t, `{"utterances":[{"text":"Remind me to water the tomatoes tonight."}]}`))
	c := dialListen(t, srv.base, appQuery(uid, "aac", 120, ""), ownerToken(t, data, uid))
	if m := c.until(10*time.Second, "ready", func(m wsMsg) bool { return event(m, "service_status") != nil || m.closeCode != 0 }); m.closeCode != 0 {
		if strings.Contains(m.closeText, "not available in this build") && os.Getenv("HEARTH_REQUIRE_E2E_TOOLS") == "" {
			t.Skipf("aac: %s (make test builds with libavcodec)", m.closeText)
		}
		t.Fatalf("aac: closed %d %q", m.closeCode, m.closeText)
	}
	frames := encodeFrames(t, "aac", wav)
	go func() {
		rng := rand.New(rand.NewPCG(1, 2))
		for range 2000 {
			frame := make([]byte, 200)
			for i := range frame {
				frame[i] = byte(rng.Uint32())
			}
			// An ADTS header (AAC-LC, 44.1 kHz, stereo, 200 bytes) over noise.
			copy(frame, []byte{0xff, 0xf1, 0x50, 0x80, byte(200 >> 3 & 0xff), byte(200&7)<<5 | 0x1f, 0xfc})
			if c.conn.WriteMessage(websocket.BinaryMessage, frame) != nil {
				return
			}
		}
		// The noise decodes to (next to) silence, so the words can only
		// come from this speech: the session outlived the bad frames.
		c.stream(frames, 4*20/64.0)
	}()
	segs := segmentsOf(c.until(30*time.Second, "segments after the noise", func(m wsMsg) bool { return segmentsOf(m) != nil }))
	if len(segs) == 0 || !strings.Contains(segs[0]["text"].(string), "tomatoes") {
		t.Fatalf("segments after the noise: %v", segs)
	}
	time.Sleep(time.Second) // let the speech's last frames go before hanging up
	// The close handshake completes: the server answers the client's close.
	if err := c.conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(5*time.Second)); err != nil {
		t.Fatalf("sending the close frame: %v", err)
	}
	c.until(20*time.Second, "the server's close frame", func(m wsMsg) bool { return m.closeCode != 0 })
	if st, body := srv.call(t, "GET", "/healthz", "", ""); st != http.StatusOK {
		t.Fatalf("/healthz after the noise: %d %s", st, body)
	}
	srv.stop(t) // the log is whole once the process is gone
	if srv.cmd.ProcessState.ExitCode() != 0 {
		t.Fatalf("hearth exited %d\n%s", srv.cmd.ProcessState.ExitCode(), tail(srv.logs.String(), 40))
	}

	libav, bad := 0, -1
	for i, line := range strings.Split(strings.TrimRight(srv.logs.String(), "\n"), "\n") {
		var rec struct {
			Msg       string `json:"msg"`
			BadFrames *int   `json:"bad_frames"`
		}
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("stderr line %d is not JSON (%v): %.300q", i+1, err, line)
		}
		switch {
		case strings.HasPrefix(rec.Msg, "libav: [aac @"):
			libav++
		case rec.Msg == "listen session ended" && rec.BadFrames != nil:
			bad = *rec.BadFrames
		}
	}
	// The frames did reach libavcodec and did make it complain: without
	// its log callback those complaints are raw lines on stderr.
	if bad < 1000 || libav == 0 {
		t.Fatalf("%d bad frames counted and %d libav records logged: the noise no longer reaches the decoder's complaints this test guards\n%s",
			bad, libav, tail(srv.logs.String(), 40))
	}
	t.Logf("%d bad frames, %d libav debug records, every stderr line JSON", bad, libav)
}

// fromAddress is a client whose connections come from ip, a loopback
// address of its own (Linux routes all of 127/8 to lo): a client the
// server tells apart by the socket's address alone.
func fromAddress(ip string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 10 * time.Second}
	return &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{DialContext: d.DialContext},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// signInAs posts one console sign-in from c, claiming with X-Forwarded-For
// and X-Real-IP to come from forged when it is not empty.
func signInAs(t *testing.T, c *http.Client, base, name, password, forged string) (int, string) {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"name": name, "password": password})
	req, _ := http.NewRequest("POST", base+"/console/api/login", strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	if forged != "" {
		req.Header.Set("X-Forwarded-For", forged)
		req.Header.Set("X-Real-IP", forged)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("sign-in: %v", err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestSignInLimitIgnoresForgedHeadersThroughTheBinary: one client on
// loopback (no --trusted-proxies) that claims a new X-Forwarded-For and
// X-Real-IP with every wrong password still has one address's budget of
// 10 sign-ins a minute, on the console and on the OAuth consent page.
// Before, each forged address bought a fresh budget and every guess
// reached the password check.
func TestSignInLimitIgnoresForgedHeadersThroughTheBinary(t *testing.T) {
	t.Parallel()
	const limit = 10 // api.PolicyConsoleLogin: per address and minute
	srv := startServe(t, t.TempDir(), "HEARTH_MDNS=false")
	claimConsole(t, srv)

	// Made-up names, so that the per-account back-off (which holds
	// whatever the address) is not what stops the guesses.
	console := fromAddress("127.0.0.3")
	defer console.CloseIdleConnections()
	for i := range limit + 1 {
		st, body := signInAs(t, console, srv.base, fmt.Sprintf("guess%d", i), "wrong password", fmt.Sprintf("10.0.0.%d", i+1))
		switch {
		case i < limit && st != http.StatusUnauthorized:
			t.Fatalf("console guess %d of the budget: %d %.200s, want 401", i+1, st, body)
		case i == limit && st != http.StatusTooManyRequests:
			t.Fatalf("console guess %d with a new forged address each time: %d %.200s, want 429", i+1, st, body)
		}
	}

	params := url.Values{"response_type": {"code"}, "client_id": {"hearth-local"}, "redirect_uri": {"http://127.0.0.1:53682/callback"},
		"code_challenge": {"E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"}, "code_challenge_method": {"S256"}, "state": {"s1"}, "scope": {"memories.read"}}
	consent := fromAddress("127.0.0.4")
	defer consent.CloseIdleConnections()
	for i := range limit + 1 {
		v := url.Values{"decision": {"approve"}, "name": {fmt.Sprintf("guess%d", i)}, "password": {"wrong password"}}
		for k, vs := range params {
			v[k] = vs
		}
		req, _ := http.NewRequest("POST", srv.base+"/oauth/authorize", strings.NewReader(v.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		forged := fmt.Sprintf("10.1.0.%d", i+1)
		req.Header.Set("X-Forwarded-For", forged)
		req.Header.Set("X-Real-IP", forged)
		resp, err := consent.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		page, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		switch {
		case i < limit && !strings.Contains(string(page), "Wrong name or password"):
			t.Fatalf("consent guess %d of the budget: %d %.300s", i+1, resp.StatusCode, page)
		case i == limit && !strings.Contains(string(page), "Too many sign-in attempts"):
			t.Fatalf("consent guess %d with a new forged address each time reached the check: %d %.300s", i+1, resp.StatusCode, page)
		}
	}
}

// TestRightPasswordClearsAccountBackoff: wrong passwords for the owner's
// account, each from a different address, put the account in back-off;
// once it ends, the right password signs in, and the count starts again:
// the next five wrong passwords (an account's free failures) are answered
// as wrong passwords, not with the back-off. Kept, the old count would put
// the account straight back into a (longer) back-off after one.
func TestRightPasswordClearsAccountBackoff(t *testing.T) {
	t.Parallel()
	const free = 5 // api.freeFailures: wrong passwords in a row before the back-off
	srv := startServe(t, t.TempDir(), "HEARTH_MDNS=false")
	claimConsole(t, srv)
	// Each attempt from its own loopback address: the per-address limit
	// never answers, so every 429 below is the account's.
	next := 0
	attempt := func(password string) (int, string) {
		t.Helper()
		next++
		c := fromAddress(fmt.Sprintf("127.0.%d.%d", 1+next/250, 1+next%250))
		defer c.CloseIdleConnections()
		return signInAs(t, c, srv.base, "Ada", password, "")
	}
	const right = "correct horse battery"

	backedOff := false
	for i := 0; i < free+5 && !backedOff; i++ {
		st, body := attempt("wrong password")
		switch {
		case st == http.StatusTooManyRequests && strings.Contains(body, "Too many wrong passwords for this account"):
			if i < free {
				t.Fatalf("back-off after %d wrong passwords, want at least %d free", i, free)
			}
			backedOff = true
		case st != http.StatusUnauthorized:
			t.Fatalf("wrong password %d: %d %.200s", i+1, st, body)
		}
	}
	if !backedOff {
		t.Fatalf("no back-off after %d wrong passwords from different addresses", free+5)
	}
	// The back-off (a second or two) runs out; meanwhile even the right
	// password is refused.
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		st, body := attempt(right)
		if st == http.StatusOK {
			break
		}
		if st != http.StatusTooManyRequests || time.Now().After(deadline) {
			t.Fatalf("the right password after the back-off: %d %.200s", st, body)
		}
	}
	for i := range free {
		if st, body := attempt("wrong again"); st != http.StatusUnauthorized {
			t.Fatalf("wrong password %d after signing in: %d %.200s, want 401: the right password did not clear the count", i+1, st, body)
		}
	}
}

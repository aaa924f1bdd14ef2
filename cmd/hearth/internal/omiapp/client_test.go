package omiapp

import (
	"bytes"
	"context"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

var timeZero time.Time

func TestQueryIsTheAppsInItsOrder(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		opts Options
		want string
	}{
		{Options{UID: "u1"}, "language=en&sample_rate=16000&codec=opus_fs320&uid=u1&include_speech_profile=true&stt_service=soniox" +
			"&conversation_timeout=120&speaker_auto_assign=enabled&create_speakers=false"},
		{Options{UID: "u1", Codec: "pcm8", ConversationTimeout: 2, Source: "omi glass", CustomSTT: true, Onboarding: true,
			CreateSpeakers: true, NoSpeechProfile: true},
			"language=en&sample_rate=8000&codec=pcm8&uid=u1&include_speech_profile=false&stt_service=soniox" +
				"&conversation_timeout=2&source=omi+glass&custom_stt=enabled&onboarding=enabled&speaker_auto_assign=enabled&create_speakers=true"},
	} {
		if got := tc.opts.Query(); got != tc.want {
			t.Errorf("query\n got %s\nwant %s", got, tc.want)
		}
	}
}

// fakeListen is a /v4/listen that plays a script and records what the
// client sends.
type fakeListen struct {
	mu         sync.Mutex
	query      string
	auth       string
	binary     [][]byte
	pings      int
	keepAlives int
	gotKeep    chan struct{}
	script     func(conn *websocket.Conn, f *fakeListen)
	// onClose is told the client's close frame; the server echoes it.
	onClose func(code int)
}

func (f *fakeListen) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	up := websocket.Upgrader{}
	conn, err := up.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	defer conn.Close()
	f.mu.Lock()
	f.query, f.auth = r.URL.RawQuery, r.Header.Get("Authorization")
	f.mu.Unlock()
	conn.SetPingHandler(func(string) error {
		f.mu.Lock()
		f.pings++
		f.mu.Unlock()
		return conn.WriteControl(websocket.PongMessage, nil, time.Now().Add(time.Second))
	})
	if f.onClose != nil {
		conn.SetCloseHandler(func(code int, text string) error {
			f.onClose(code)
			return conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, ""), time.Now().Add(time.Second))
		})
	}
	go func() {
		for {
			kind, data, err := conn.ReadMessage()
			if err != nil {
				return
			}
			if kind == websocket.BinaryMessage {
				f.mu.Lock()
				if bytes.Equal(data, KeepAlive) {
					f.keepAlives++
					select {
					case f.gotKeep <- struct{}{}:
					default:
					}
				} else {
					f.binary = append(f.binary, data)
				}
				f.mu.Unlock()
			}
		}
	}()
	f.script(conn, f)
}

func TestClientBehavesAsTheApp(t *testing.T) {
	t.Parallel()
	streamed := make(chan struct{})
	f := &fakeListen{gotKeep: make(chan struct{}, 1)}
	f.script = func(conn *websocket.Conn, f *fakeListen) {
		send := func(s string) { conn.WriteMessage(websocket.TextMessage, []byte(s)) }
		send(`{"type":"last_memory","memory_id":"old"}`)
		send(`{"type":"service_status","status":"ready"}`)
		send("ping")
		select {
		case <-f.gotKeep:
		case <-time.After(5 * time.Second):
		}
		<-streamed
		send(`[{"id":"a","text":"Book the dentist","speaker":"SPEAKER_00","start":0,"end":2}]`)
		send(`[{"id":"b","text":"for Thursday.","speaker":"SPEAKER_00","start":2.4,"end":3}]`)
		send(`{"type":"segments_deleted","segment_ids":["a"]}`)
		send(`{"type":"memory_processing_started","memory":{"id":"c1"}}`)
		send(`[{"id":"c","text":"Then buy bread.","speaker":"SPEAKER_01","start":10,"end":11}]`)
		time.Sleep(150 * time.Millisecond) // a few client pings
		conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseGoingAway, "server shutting down"),
			time.Now().Add(time.Second))
		time.Sleep(100 * time.Millisecond)
	}
	srv := httptest.NewServer(f)
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := Dial(ctx, srv.URL, Options{UID: "u1", Token: "tok", Codec: "pcm16", PingEvery: 40 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Abort()
	frames, _ := Frames("pcm16", make([]int16, 5*FrameSamples))
	if err := c.Stream(ctx, frames, FrameDuration, 10); err != nil {
		t.Fatal(err)
	}
	close(streamed)
	st, err := c.WaitClosed(ctx)
	if err != nil {
		t.Fatal(err)
	}

	f.mu.Lock()
	defer f.mu.Unlock()
	if f.query != (Options{UID: "u1", Codec: "pcm16"}).Query() || f.auth != "Bearer tok" {
		t.Errorf("upgrade: query %q auth %q", f.query, f.auth)
	}
	if f.keepAlives != 1 || len(f.binary) != 5 || len(f.binary[0]) != 640 {
		t.Errorf("server got %d keep-alives and %d audio frames", f.keepAlives, len(f.binary))
	}
	if f.pings < 2 {
		t.Errorf("server got %d ping frames", f.pings)
	}
	if st.CloseCode != websocket.CloseGoingAway || st.CloseText != "server shutting down" {
		t.Errorf("close %d %q", st.CloseCode, st.CloseText)
	}
	var kinds []string
	for _, m := range st.Messages {
		kinds = append(kinds, m.Kind)
	}
	if got := strings.Join(kinds, " "); got != "last_memory service_status ping segments segments segments_deleted memory_processing_started segments" {
		t.Errorf("messages %s", got)
	}
	if u := st.Unknown(); len(u) != 1 || u[0].Kind != "segments_deleted" {
		t.Errorf("unknown events %v", u)
	}
	// The first recording: b folded into a by the app; segments_deleted
	// ignored. The second: what came after processing started.
	if len(st.Recordings) != 2 || Text(st.Recordings[0]) != "Book the dentist for Thursday." || st.Recordings[0][0].ID != "a" ||
		Text(st.View()) != "Then buy bread." {
		t.Errorf("recordings %v", st.Recordings)
	}
	if st.Sent.AudioFrames != 5 || st.Sent.KeepAlives != 1 {
		t.Errorf("sent %+v", st.Sent)
	}
}

func TestClientDeletesSegmentsWhenAsked(t *testing.T) {
	t.Parallel()
	f := &fakeListen{gotKeep: make(chan struct{}, 1), script: func(conn *websocket.Conn, f *fakeListen) {
		conn.WriteMessage(websocket.TextMessage, []byte(`[{"id":"a","text":"one"},{"id":"b","text":"two","speaker":"SPEAKER_01"}]`))
		conn.WriteMessage(websocket.TextMessage, []byte(`{"type":"segments_deleted","segment_ids":["a"]}`))
		conn.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""))
		time.Sleep(100 * time.Millisecond)
	}}
	srv := httptest.NewServer(f)
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := Dial(ctx, srv.URL, Options{UID: "u", DeleteSegments: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Abort()
	st, err := c.WaitClosed(ctx)
	if err != nil || Text(st.View()) != "two" {
		t.Fatalf("view %v, %v", st.View(), err)
	}
}

func TestClientCloseSendsNormalClosure(t *testing.T) {
	t.Parallel()
	got := make(chan int, 1)
	f := &fakeListen{onClose: func(code int) { got <- code }, script: func(conn *websocket.Conn, f *fakeListen) {
		time.Sleep(2 * time.Second)
	}}
	srv := httptest.NewServer(f)
	defer srv.Close()
	c, err := Dial(context.Background(), srv.URL, Options{UID: "u"})
	if err != nil {
		t.Fatal(err)
	}
	c.Close(5 * time.Second)
	select {
	case code := <-got:
		if code != websocket.CloseNormalClosure {
			t.Fatalf("close code %d", code)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no close frame")
	}
	if st := c.State(); st.CloseCode != websocket.CloseNormalClosure {
		t.Fatalf("client saw close %d", st.CloseCode)
	}
}

// TestOpusFramesAreTheFirmwares: 20 ms CELT-only packets, one frame each,
// at about 32 kbps.
func TestOpusFramesAreTheFirmwares(t *testing.T) {
	t.Parallel()
	if !HasOpusEncoder() {
		if os.Getenv("HEARTH_REQUIRE_E2E_TOOLS") != "" {
			t.Fatal("no Opus encoder in this build (make test builds with the libopus tag)")
		}
		t.Skip("no Opus encoder in this build")
	}
	// Two seconds of a voiced-like signal: a wandering pitch with
	// harmonics.
	pcm := make([]int16, 2*16000)
	phase := 0.0
	for i := range pcm {
		f0 := 140 + 40*math.Sin(2*math.Pi*float64(i)/16000*1.5)
		phase += 2 * math.Pi * f0 / 16000
		v := 0.0
		for h := 1; h <= 12; h++ {
			v += math.Sin(float64(h)*phase) / float64(h)
		}
		pcm[i] = int16(6000 * v)
	}
	frames, err := Frames("opus_fs320", pcm)
	if err != nil {
		t.Fatal(err)
	}
	if len(frames) != 100 {
		t.Fatalf("%d frames for 2 s, want 100", len(frames))
	}
	total := 0
	for i, f := range frames {
		config, code := f[0]>>3, f[0]&3
		// TOC configs 16–31 are CELT only; config%4 == 3 is 20 ms; code 0
		// is one frame in the packet.
		if config < 16 || config%4 != 3 || code != 0 {
			t.Fatalf("frame %d: TOC %#x (config %d, code %d), want a single 20 ms CELT frame", i, f[0], config, code)
		}
		total += len(f)
	}
	if kbps := float64(total*8) / 2 / 1000; kbps < 20 || kbps > 40 {
		t.Fatalf("%.1f kbps, want about 32", kbps)
	}
}

func TestReadWAV(t *testing.T) {
	t.Parallel()
	pcm := []int16{0, 1, -1, 32767, -32768}
	b := []byte("RIFF\x00\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x01\x00\x80\x3e\x00\x00\x00\x7d\x00\x00\x02\x00\x10\x00" +
		"LIST\x04\x00\x00\x00abcd" + "data\x0a\x00\x00\x00")
	for _, v := range pcm {
		b = append(b, byte(uint16(v)), byte(uint16(v)>>8))
	}
	path := filepath.Join(t.TempDir(), "x.wav")
	os.WriteFile(path, b, 0o600)
	got, rate, err := ReadWAV(path)
	if err != nil || rate != 16000 || len(got) != len(pcm) || got[3] != 32767 || got[4] != -32768 {
		t.Fatalf("%v %d %v", got, rate, err)
	}
}

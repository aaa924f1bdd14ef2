package listen_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/hearth-appliance/hearth/appliance/audio"
	"github.com/hearth-appliance/hearth/appliance/listen"
	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/appliance/stt/scripted"
)

// stuckRoute takes audio and never hears it out: a recognizer on a box too
// busy to finish before a shutdown's time is up.
type stuckRoute struct{}

func (stuckRoute) Name() string              { return "stuck" }
func (stuckRoute) Supports(string, int) bool { return true }
func (stuckRoute) Open(context.Context, stt.Config) (stt.Stream, error) {
	return &stuckStream{words: make(chan []stt.Word)}, nil
}

type stuckStream struct {
	words chan []stt.Word
}

func (s *stuckStream) Send([]int16) error       { return nil }
func (s *stuckStream) Words() <-chan []stt.Word { return s.words }
func (s *stuckStream) Err() error               { return nil }
func (s *stuckStream) Close() error             { return nil } // its words never come

// TestShutdownPastItsTimeClosesAndKeepsTheAudio: when a shutdown's time is
// up before a session was heard out, the client still gets its close frame
// (1001, not a dropped connection) and the audio the route never
// transcribed is kept in the spool folder as a 16 kHz WAV.
func TestShutdownPastItsTimeClosesAndKeepsTheAudio(t *testing.T) {
	t.Parallel()
	spool := t.TempDir()
	e := newEnv(t, fast, scripted.Script{}, func(d *listen.Deps) {
		d.Router = stt.NewRouter(nil, stuckRoute{})
		d.SpoolDir = spool
		d.Timing.Drain = time.Minute // longer than the shutdown below
	})
	c := e.dial("uid=u1&codec=pcm16&sample_rate=16000")
	c.next(2*time.Second, isType("service_status"))
	c.send(pcm16(1.5, true))
	time.Sleep(200 * time.Millisecond) // the frames reach the spool

	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	e.srv.Shutdown(ctx)
	select {
	case code := <-c.code:
		if code != websocket.CloseGoingAway {
			t.Fatalf("closed %d, want 1001", code)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no close frame after the shutdown's time was up")
	}
	wavs, _ := filepath.Glob(filepath.Join(spool, "*.wav"))
	if len(wavs) != 1 {
		t.Fatalf("%d WAV files kept in the spool folder, want 1", len(wavs))
	}
	src, err := audio.OpenFile(wavs[0])
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	if got := src.Duration().Seconds(); got < 1.4 || got > 1.6 {
		t.Fatalf("kept %.2f s of audio (%s), want the 1.5 s sent", got, src.Format())
	}
}

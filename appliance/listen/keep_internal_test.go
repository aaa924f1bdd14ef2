package listen

import (
	"math"
	"os"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance/audio"
	"github.com/hearth-appliance/hearth/appliance/recordings"
)

// TestKeeper_FilePerConversation: the session's audio goes to the open
// conversation's recording; the audio between two recordings begins the
// next one's file, whose start names when that audio was said. The same
// whether the samples are kept (encoded) or the client's Opus packets are,
// as they came.
func TestKeeper_FilePerConversation(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name        string
		channels    int
		wantPackets bool
	}{
		{"samples", 0, false},
		{"packets", 1, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			testKeeperFilePerConversation(t, c.channels, c.wantPackets)
		})
	}
}

func testKeeperFilePerConversation(t *testing.T, channels int, wantPackets bool) {
	if !audio.CanEncodeOpus {
		if os.Getenv("HEARTH_REQUIRE_E2E_TOOLS") != "" {
			t.Fatal("this build has no Opus encoder (make test links libopus)")
		}
		t.Skip("this build has no Opus encoder")
	}
	store := &recordings.Keeper{Dir: t.TempDir(), NewEncoder: audio.NewOpusEncoder}
	start := time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC)
	conv, open := "a", true
	var preSkips []int
	k := &keeper{
		open: func(c string, started time.Time, packets *audio.OpusPackets) (AudioSink, error) {
			if (packets != nil) != wantPackets {
				t.Fatalf("opened with %+v keeping packets of %d channels", packets, channels)
			}
			if packets != nil {
				preSkips = append(preSkips, packets.PreSkip)
			}
			return store.Create("ada", c, started, packets)
		},
		current:  func() (string, bool) { return conv, open },
		start:    start,
		log:      func(string, ...any) {},
		channels: channels,
	}
	client, err := audio.NewOpusEncoder() // the wearable's
	if err != nil {
		t.Fatal(err)
	}
	feed := func(d time.Duration) {
		for range int(d / (20 * time.Millisecond)) {
			frame := make([]int16, audio.OpusFrame)
			for i := range frame {
				frame[i] = int16(5000 * math.Sin(float64(i)))
			}
			pkt, err := client.Encode(frame)
			if err != nil {
				t.Fatal(err)
			}
			k.add(frame, pkt)
		}
	}
	feed(2 * time.Second)
	// What the open recording took is not held again: at most the
	// pre-roll (two of it before a trim).
	if held := k.n - k.pkts.start(k.n); (wantPackets && len(k.ring) > 0) || held > 2*opusPreRoll {
		t.Errorf("with a recording open the ring holds %d samples and %d of packets", len(k.ring), held)
	}
	open = false // the recording ended; a second of audio before the next
	feed(time.Second)
	conv, open = "b", true
	feed(1500 * time.Millisecond)
	k.close()

	for _, c := range []struct {
		conv     string
		started  time.Time
		duration float64
	}{{"a", start, 2}, {"b", start.Add(2 * time.Second), 2.5}} {
		files, err := store.Files("ada", c.conv)
		if err != nil || len(files) != 1 {
			t.Fatalf("%s: %v %v", c.conv, files, err)
		}
		if f := files[0]; !f.StartedAt.Equal(c.started) || math.Abs(f.Duration-c.duration) > 0.03 {
			t.Errorf("%s: started %v, %.3f s; want %v, %.1f s", c.conv, f.StartedAt, f.Duration, c.started, c.duration)
		}
	}
	// The second file is primed with the 80 ms before it, which the
	// player drops.
	if wantPackets && (len(preSkips) != 2 || preSkips[0] != 0 || preSkips[1] != 80*48) {
		t.Errorf("pre-skips %v, want [0 3840]", preSkips)
	}
}

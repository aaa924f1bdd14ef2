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
// next one's file, whose start names when that audio was said.
func TestKeeper_FilePerConversation(t *testing.T) {
	t.Parallel()
	if !audio.CanEncodeOpus {
		if os.Getenv("HEARTH_REQUIRE_E2E_TOOLS") != "" {
			t.Fatal("this build has no Opus encoder (make test links libopus)")
		}
		t.Skip("this build has no Opus encoder")
	}
	store := &recordings.Keeper{Dir: t.TempDir(), NewEncoder: audio.NewOpusEncoder}
	start := time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC)
	conv, open := "a", true
	k := &keeper{
		open:    func(c string, started time.Time) (AudioSink, error) { return store.Create("ada", c, started) },
		current: func() (string, bool) { return conv, open },
		start:   start,
		log:     func(string, ...any) {},
	}
	feed := func(d time.Duration) {
		for range int(d / (20 * time.Millisecond)) {
			frame := make([]int16, audio.OpusFrame)
			for i := range frame {
				frame[i] = int16(5000 * math.Sin(float64(i)))
			}
			k.add(frame)
		}
	}
	feed(2 * time.Second)
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
}

package audio_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance/audio"
)

// TestLibavLogsNotOnStderr: corrupt AAC frames make libavcodec complain
// once per frame; the complaints reach the appliance's log at debug,
// rate-limited, and not one byte reaches stderr (where they used to break
// --log-format json). The decoding runs in a child process so its stderr
// can be counted.
func TestLibavLogsNotOnStderr(t *testing.T) {
	if os.Getenv("HEARTH_AVLOG_CHILD") != "" {
		libavLogChild(t)
		return
	}
	t.Parallel()
	if !audio.Available(audio.AAC) {
		if os.Getenv("HEARTH_REQUIRE_E2E_TOOLS") != "" {
			t.Fatal("aac is not in this build")
		}
		t.Skip("aac is not in this build (libavcodec-dev)")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestLibavLogsNotOnStderr$", "-test.count=1")
	cmd.Env = append(os.Environ(), "HEARTH_AVLOG_CHILD=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("child: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	if stderr.Len() != 0 {
		t.Fatalf("%d bytes on stderr: %.300q", stderr.Len(), stderr.String())
	}
	lines, suppressed, seconds := 0, 0, 0.0
	for _, line := range strings.Split(stdout.String(), "\n") {
		var rec struct {
			Level, Msg string
			Suppressed int
			Seconds    float64
		}
		if json.Unmarshal([]byte(line), &rec) != nil {
			continue
		}
		switch {
		case strings.HasPrefix(rec.Msg, "libav: [aac @"):
			if rec.Level != "DEBUG" {
				t.Fatalf("libav line at %s: %s", rec.Level, line)
			}
			lines++
			suppressed += rec.Suppressed
		case rec.Msg == "decoded":
			seconds = rec.Seconds
		}
	}
	if lines == 0 {
		t.Fatalf("no libav line in the log:\n%.2000s", stdout.String())
	}
	// At most 20 a second: the 2,000 corrupt frames do not make 2,000 lines.
	if limit := 20 * (int(seconds) + 2); lines > limit {
		t.Fatalf("%d libav lines in %.1f s, want at most %d", lines, seconds, limit)
	}
	t.Logf("%d libav lines logged, %d suppressed, in %.2f s", lines, suppressed, seconds)
}

// libavLogChild decodes 2,000 corrupt AAC frames with a JSON debug log on
// stdout.
func libavLogChild(t *testing.T) {
	log := slog.New(slog.NewJSONHandler(os.Stdout, &slog.HandlerOptions{Level: slog.LevelDebug}))
	audio.SetLibavLogger(log)
	d, err := audio.NewDecoder(audio.Format{Codec: audio.AAC, SampleRate: 44100})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	rng := rand.New(rand.NewPCG(1, 2))
	start := time.Now()
	for range 2000 {
		frame := make([]byte, 200)
		for i := range frame {
			frame[i] = byte(rng.Uint32())
		}
		// An ADTS header (AAC-LC, 44.1 kHz, stereo, 200 bytes) over noise.
		copy(frame, []byte{0xff, 0xf1, 0x50, 0x80, byte(200 >> 3 & 0xff), byte(200&7)<<5 | 0x1f, 0xfc})
		d.Decode(nil, frame)
	}
	log.Info("decoded", "seconds", time.Since(start).Seconds())
	fmt.Fprintln(os.Stdout)
}

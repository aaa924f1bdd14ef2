//go:build libopus && cgo

package recordings_test

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	opus "gopkg.in/hraban/opus.v2"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/audio"
	"github.com/hearth-appliance/hearth/appliance/recordings"
)

// TestKeeper_EncodesFastPacketsAgainOnceClosed: a recording kept from a
// client's Opus packets faster than KeepAsSentBitrate is encoded again
// at about 16 kbps after it closes, in place, with its start and length;
// one at most that rate stays byte for byte as it came.
func TestKeeper_EncodesFastPacketsAgainOnceClosed(t *testing.T) {
	t.Parallel()
	k := newKeeper(t, appliance.AudioRetention{}, 0)
	k.KeepAsSentBitrate = 20000
	started := time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC)

	write := func(conv string, bitrate int) string { return writePackets(t, k, conv, started, bitrate) }
	slow := write("slow", 12000) // queued first: done before the fast one
	slowBytes, err := os.ReadFile(slow)
	if err != nil {
		t.Fatal(err)
	}
	fast := write("fast", 48000)
	st, err := os.Stat(fast)
	if err != nil {
		t.Fatal(err)
	}
	sent := st.Size()
	// 5 s at about 16 kbps is about 10 kB, with the pages' overhead.
	if size := waitSmaller(t, fast, sent*2/3); size > 14000 {
		t.Errorf("encoded again: %d bytes, want about 10 kB (sent %d)", size, sent)
	}
	files, err := k.Files("ada", "fast")
	if err != nil || len(files) != 1 {
		t.Fatalf("fast: %v %v", files, err)
	}
	if f := files[0]; !f.StartedAt.Equal(started) || f.Duration < 4.97 || f.Duration > 5.03 {
		t.Errorf("encoded again: started %v, %.3f s; want %v, 5 s", f.StartedAt, f.Duration, started)
	}
	src, err := audio.OpenFile(fast)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	got, buf := 0, make([]int16, 4096)
	for {
		n, err := src.Read(buf)
		got += n
		if err != nil {
			break
		}
	}
	if got < 5*audio.Rate-audio.OpusFrame || got > 5*audio.Rate+audio.OpusFrame {
		t.Errorf("encoded again it decodes to %d samples, want %d", got, 5*audio.Rate)
	}
	now, err := os.ReadFile(slow)
	if err != nil || string(now) != string(slowBytes) {
		t.Errorf("the 12 kbps recording changed (%d → %d bytes, %v): it is kept as it came", len(slowBytes), len(now), err)
	}
	if leftovers, _ := filepath.Glob(filepath.Join(k.Dir, "ada", "*", "*.compacting")); len(leftovers) > 0 {
		t.Errorf("copies left behind: %v", leftovers)
	}
}

// writePackets keeps 5 s of a noisy tone as the packets of a libopus
// encoder at bitrate, in conv's recording starting at started, and
// returns its path.
func writePackets(t *testing.T, k *recordings.Keeper, conv string, started time.Time, bitrate int) string {
	t.Helper()
	enc, err := opus.NewEncoder(audio.Rate, 1, opus.AppVoIP)
	if err != nil {
		t.Fatal(err)
	}
	if err := enc.SetBitrate(bitrate); err != nil {
		t.Fatal(err)
	}
	w, err := k.Create("ada", conv, started, &audio.OpusPackets{Channels: 1})
	if err != nil {
		t.Fatal(err)
	}
	pcm := tone(5 * time.Second)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range pcm {
		pcm[i] += int16(r.IntN(4000) - 2000) // noise, which a fast encoder spends its bits on
	}
	buf := make([]byte, 1500)
	for at := 0; at+audio.OpusFrame <= len(pcm); at += audio.OpusFrame {
		n, err := enc.Encode(pcm[at:at+audio.OpusFrame], buf)
		if err != nil {
			t.Fatal(err)
		}
		w.WritePacket(buf[:n], audio.OpusFrame)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	files, err := k.Files("ada", conv)
	if err != nil || len(files) != 1 {
		t.Fatalf("%s: %v %v", conv, files, err)
	}
	return filepath.Join(k.Dir, "ada", conv, files[0].ID+".ogg")
}

// waitSmaller waits until the file at path is under limit bytes.
func waitSmaller(t *testing.T, path string, limit int64) int64 {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		st, err := os.Stat(path)
		if err == nil && st.Size() < limit {
			return st.Size()
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s is still not under %d bytes (%v)", path, limit, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestKeeper_SweepEncodesAgainWhatWasLeft: a fast recording that closed
// without being encoded again (the process stopped with it queued, or
// the setting was raised then lowered) is found by the next sweep and
// encoded again; a file encoded here is not taken again.
func TestKeeper_SweepEncodesAgainWhatWasLeft(t *testing.T) {
	t.Parallel()
	k := newKeeper(t, appliance.AudioRetention{}, 0)
	k.KeepAsSentBitrate = 1 << 30 // kept as sent when it closes
	started := time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC)
	fast := writePackets(t, k, "fast", started, 48000)
	st, err := os.Stat(fast)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond)
	if now, _ := os.Stat(fast); now == nil || now.Size() != st.Size() {
		t.Fatalf("encoded again at close although the setting keeps it as sent")
	}
	k.KeepAsSentBitrate = 20000
	alive := func(context.Context, string, string) (bool, error) { return true, nil }
	if _, err := k.Sweep(t.Context(), alive); err != nil {
		t.Fatal(err)
	}
	size := waitSmaller(t, fast, st.Size()*2/3)
	if size > 14000 {
		t.Errorf("encoded again by the sweep: %d bytes, want about 10 kB (sent %d)", size, st.Size())
	}
	// The file encoded here is under the sweep's floor: a second sweep
	// leaves it byte for byte.
	before, _ := os.ReadFile(fast)
	if _, err := k.Sweep(t.Context(), alive); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond)
	if after, _ := os.ReadFile(fast); string(after) != string(before) {
		t.Errorf("a second sweep encoded the file again (%d → %d bytes)", len(before), len(after))
	}
}

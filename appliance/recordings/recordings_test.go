package recordings_test

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/audio"
	"github.com/hearth-appliance/hearth/appliance/recordings"
)

func newKeeper(t *testing.T, ret appliance.AudioRetention, quota int64) *recordings.Keeper {
	t.Helper()
	if !audio.CanEncodeOpus {
		if os.Getenv("HEARTH_REQUIRE_E2E_TOOLS") != "" {
			t.Fatal("this build has no Opus encoder (make test links libopus)")
		}
		t.Skip("this build has no Opus encoder")
	}
	return &recordings.Keeper{Dir: t.TempDir(), Retention: ret, Quota: quota, NewEncoder: audio.NewOpusEncoder}
}

// tone is d of a voice-band tone.
func tone(d time.Duration) []int16 {
	pcm := make([]int16, int(d.Seconds()*audio.Rate))
	for i := range pcm {
		pcm[i] = int16(6000 * math.Sin(2*math.Pi*300*float64(i)/audio.Rate))
	}
	return pcm
}

// TestKeeper_FilesForgetAndSweep: a recording is listed with its start
// and length, deleted with its conversation, and swept when past the
// retention or when its conversation is gone, never while written.
func TestKeeper_FilesForgetAndSweep(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC)
	k := newKeeper(t, appliance.AudioRetention{Days: 30}, 0)
	k.Now = func() time.Time { return now }
	write := func(user, conv string, started time.Time, d time.Duration) {
		t.Helper()
		w, err := k.Create(user, conv, started, nil)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(tone(d))
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	write("ada", "old", now.AddDate(0, 0, -31), 2*time.Second)
	write("ada", "new", now.Add(-time.Hour), 3*time.Second)
	write("ada", "gone", now.Add(-time.Hour), time.Second)
	write("bo", "new", now.Add(-time.Hour), time.Second)

	files, err := k.Files("ada", "new")
	if err != nil || len(files) != 1 || !files[0].StartedAt.Equal(now.Add(-time.Hour)) || math.Abs(files[0].Duration-3) > 0.03 ||
		files[0].ConversationID != "new" || files[0].UID != "ada" {
		t.Fatalf("files: %+v %v", files, err)
	}
	if f, err := k.Open("bo", "old", files[0].ID); appliance.ErrorCode(err) != appliance.ENOTFOUND {
		t.Errorf("bo opens a file of ada's: %v %v", f, err)
	}
	for _, bad := range [][2]string{{"..", "new"}, {"ada", "../bo"}, {"ada/../bo", "new"}} {
		if _, err := k.Open(bad[0], bad[1], files[0].ID); err == nil {
			t.Errorf("Open(%q, %q) is allowed", bad[0], bad[1])
		}
	}

	// A file being written is left alone even past the retention.
	busy, err := k.Create("ada", "busy", now.AddDate(0, 0, -40), nil)
	if err != nil {
		t.Fatal(err)
	}
	busy.Write(tone(time.Second))
	alive := func(_ context.Context, user, conv string) (bool, error) { return conv != "gone", nil }
	n, err := k.Sweep(context.Background(), alive)
	if err != nil || n != 2 {
		t.Fatalf("sweep removed %d (%v), want the expired and the gone one", n, err)
	}
	for _, c := range []struct {
		user, conv string
		kept       bool
	}{{"ada", "old", false}, {"ada", "gone", false}, {"ada", "new", true}, {"bo", "new", true}, {"ada", "busy", true}} {
		if files, _ := k.Files(c.user, c.conv); (len(files) > 0) != c.kept {
			t.Errorf("%s/%s kept %v, want %v", c.user, c.conv, files, c.kept)
		}
	}
	busy.Close()

	if err := k.Forget(context.Background(), "ada", "new"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(k.Dir, "ada", "new")); !os.IsNotExist(err) {
		t.Errorf("a forgotten conversation's folder: %v", err)
	}
}

// TestKeeper_Quota: past a user's quota the writer stops keeping audio
// and no new recording starts; another user is not affected.
func TestKeeper_Quota(t *testing.T) {
	t.Parallel()
	k := newKeeper(t, appliance.AudioRetention{}, 4000)
	w, err := k.Create("ada", "c1", time.Now(), nil)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(tone(10 * time.Second)) // about 20 kB at 16 kbps
	w.Close()
	used, _ := k.Usage("ada")
	if used < 4000 || used > 4000+8000 {
		t.Errorf("ada uses %d bytes of a 4000-byte quota", used)
	}
	if _, err := k.Create("ada", "c2", time.Now(), nil); !errors.Is(err, recordings.ErrQuota) {
		t.Errorf("a recording past the quota: %v", err)
	}
	if w, err := k.Create("bo", "c1", time.Now(), nil); err != nil {
		t.Errorf("bo's first recording: %v", err)
	} else {
		w.Close()
	}
	if st := k.Status("ada"); !st.Available || st.Used != used || st.Quota != 4000 || st.Retention != "forever" {
		t.Errorf("status %+v", st)
	}
}

// TestKeeper_Never: retention never keeps nothing and says so.
func TestKeeper_Never(t *testing.T) {
	t.Parallel()
	k := &recordings.Keeper{Dir: t.TempDir(), Retention: appliance.AudioRetention{Never: true}, NewEncoder: audio.NewOpusEncoder}
	if _, err := k.Create("ada", "c1", time.Now(), nil); !errors.Is(err, recordings.ErrOff) {
		t.Errorf("create with retention never: %v", err)
	}
	if st := k.Status("ada"); st.Available || st.Retention != "never" {
		t.Errorf("status %+v", st)
	}
}

// TestWriter_FlushIdle: audio that stops arriving mid-page is on disk
// once a second has passed since the last page, not before.
func TestWriter_FlushIdle(t *testing.T) {
	t.Parallel()
	k := newKeeper(t, appliance.AudioRetention{}, 0)
	w, err := k.Create("ada", "c1", time.Now(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.Write(tone(400 * time.Millisecond)) // less than a page
	files, _ := k.Files("ada", "c1")
	if len(files) != 0 {
		t.Fatalf("a part page is on disk at once: %+v", files)
	}
	w.FlushIdle() // the page before (the headers) went out just now
	if files, _ := k.Files("ada", "c1"); len(files) != 0 {
		t.Fatalf("flushed within the second: %+v", files)
	}
	time.Sleep(1100 * time.Millisecond)
	w.FlushIdle()
	files, _ = k.Files("ada", "c1")
	if len(files) != 1 || math.Abs(files[0].Duration-0.4) > 0.03 {
		t.Fatalf("after a second idle: %+v", files)
	}
}

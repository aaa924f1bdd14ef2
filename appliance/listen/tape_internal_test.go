package listen

import (
	"os"
	"slices"
	"testing"
)

// TestTapeKeepsEveryFrame: what a session sent its route reads back from
// disk by stream sample, a stretch past the end is cut to what was sent,
// and the file is gone once the tape is removed.
func TestTapeKeepsEveryFrame(t *testing.T) {
	dir := t.TempDir()
	tp, err := openTape(dir)
	if err != nil {
		t.Fatal(err)
	}
	var all []int16
	for i := range 200 { // 4 s in 20 ms frames
		f := make([]int16, 320)
		for j := range f {
			f[j] = int16(i*320 + j - 30000)
		}
		tp.add(f)
		all = append(all, f...)
	}
	for _, c := range []struct{ from, to, want int }{{0, 320, 320}, {5000, 17000, 12000}, {60000, 70000, 4000}, {64000, 64000, 0}} {
		got, err := tp.read(c.from, c.to)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != c.want || !slices.Equal(got, all[c.from:c.from+c.want]) {
			t.Errorf("read %d–%d: %d samples, want %d as sent", c.from, c.to, len(got), c.want)
		}
	}
	tp.remove()
	if _, err := os.Stat(tp.path); !os.IsNotExist(err) {
		t.Errorf("the tape is still on disk: %v", err)
	}
	if _, err := tp.read(0, 320); err == nil {
		t.Error("a removed tape was read")
	}
}

package listen

import (
	"testing"

	"github.com/hearth-appliance/hearth/appliance/stt"
)

func TestSpoolKeepsTheLatestUnconfirmedAudio(t *testing.T) {
	s := newSpool()
	frame := make([]int16, 320)
	for i := range 50 * 60 { // a minute of 20 ms frames, nothing confirmed
		for j := range frame {
			frame[j] = int16(i % 30000)
		}
		s.add(frame)
	}
	max := (spoolSeconds + spoolSlack) * stt.SampleRate
	if n := len(s.pcm); n < spoolSeconds*stt.SampleRate || n > max {
		t.Fatalf("spool holds %d samples, want %d–%d", n, spoolSeconds*stt.SampleRate, max)
	}
	if last := s.pcm[len(s.pcm)-1]; last != int16((50*60-1)%30000) {
		t.Fatalf("newest sample %d: the spool dropped the wrong end", last)
	}
	if s.start+len(s.pcm) != 50*60*320 {
		t.Fatalf("start %d + %d samples is not the stream's length", s.start, len(s.pcm))
	}
	// Words up to 59 s: only the last second is still unconfirmed.
	s.confirm(59)
	if n := len(s.pcm); n != stt.SampleRate {
		t.Fatalf("after confirming 59 s of 60, %d samples kept", n)
	}
}

func BenchmarkSpoolAddDuringSilence(b *testing.B) {
	s := newSpool()
	frame := make([]int16, 320)
	for range 50 * 40 {
		s.add(frame)
	}
	b.ResetTimer()
	for range b.N {
		s.add(frame)
	}
}

// TestSpoolReadsTheTape: with the session's tape the spool holds no
// samples, and gives back the same unconfirmed audio from the tape.
func TestSpoolReadsTheTape(t *testing.T) {
	tp, err := openTape(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer tp.remove()
	mem, taped := newSpool(), &spool{tape: tp}
	frame := make([]int16, 320)
	for i := range 50 * 40 { // 40 s, nothing confirmed
		for j := range frame {
			frame[j] = int16(i*320 + j)
		}
		tp.add(frame)
		mem.add(frame)
		taped.add(frame)
		if i == 50*20 {
			mem.confirm(10)
			taped.confirm(10)
		}
	}
	for _, sec := range []float64{0, 39.5} {
		mem.confirm(sec)
		taped.confirm(sec)
		want, _ := mem.held()
		got, err := taped.held()
		if err != nil || len(taped.pcm) != 0 || len(got) != len(want) || len(got) == 0 || got[0] != want[0] || got[len(got)-1] != want[len(want)-1] {
			t.Fatalf("confirmed %v s: %d samples from the tape (%v, %d in memory), want %d", sec, len(got), err, len(taped.pcm), len(want))
		}
	}
}

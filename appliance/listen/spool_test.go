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

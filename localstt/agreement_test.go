package localstt

import (
	"context"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance/stt"
)

// passes stands in for whisper in this test: each call returns the next
// hypothesis of the growing utterance, as a real model's would grow.
type passes struct {
	mu   sync.Mutex
	hyps []string
	n    int
}

func (p *passes) transcribe(pcm []float32, _ string, _ bool, _ int) ([]heard, string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	h := p.hyps[min(p.n, len(p.hyps)-1)]
	p.n++
	return []heard{{Segment: stt.Segment{Start: 0, End: float64(len(pcm)) / stt.SampleRate, Text: h}}}, "en", nil
}
func (p *passes) multilingual() bool { return false }
func (p *passes) close()             {}

func TestLongUtterancesCommitWhatTwoPassesAgreeOn(t *testing.T) {
	eng := &passes{hyps: []string{
		"the quick brown",
		"the quick brown fox jumps",
		"the quick brown fox jumps over the",
		"the quick brown fox jumps over the lazy dog",
	}}
	r := &Route{cfg: Config{Wait: time.Second, Threads: 1}, english: true, pool: make(chan engine, 1)}
	r.pool <- eng
	st, err := r.Open(context.Background(), stt.Config{Language: "en"})
	if err != nil {
		t.Fatal(err)
	}
	var batches [][]string
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ws := range st.Words() {
			var b []string
			for _, w := range ws {
				b = append(b, w.Text)
			}
			batches = append(batches, b)
		}
	}()
	// 9 s of speech-like sound (syllable dips), then a pause.
	for i := 0; i < 16000*10; i += 320 {
		f := make([]int16, 320)
		for j := range f {
			if i < 16000*9 && (i+j)%8000 > 1600 {
				f[j] = int16(5000 * math.Sin(2*math.Pi*200*float64(i+j)/16000))
			}
		}
		if err := st.Send(f); err != nil {
			t.Fatal(err)
		}
		time.Sleep(50 * time.Microsecond)
	}
	st.Close()
	<-done
	if err := st.Err(); err != nil {
		t.Fatal(err)
	}
	var all []string
	for _, b := range batches {
		all = append(all, b...)
	}
	if got := strings.Join(all, " "); got != "the quick brown fox jumps over the lazy dog" {
		t.Fatalf("heard %q in %v", got, batches)
	}
	if len(batches) < 2 || strings.Join(batches[0], " ") != "the quick brown" {
		t.Fatalf("words did not arrive before the end: %v", batches)
	}
}

package pocketsphinx_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/appliance/stt/realspeech"
	"github.com/hearth-appliance/hearth/localstt/pocketsphinx"
)

// BenchmarkLiveWordsAfterSpeech streams recorded speech in real time (six
// clips of 1–8 s with 2 s pauses, 20 ms frames) into a live stream and
// measures how long after the last sample of each clip its words arrive:
// the VAD's 360 ms of silence that ends an utterance, then the decoding
// left to do. Reported per utterance: the median and the worst (ms), and
// the worst per second of speech (ms/s), since an utterance heard whole
// is decoded after its end.
func BenchmarkLiveWordsAfterSpeech(b *testing.B) {
	clips, err := realspeech.English(context.Background())
	if err != nil {
		b.Skip(err)
	}
	var pick []realspeech.Clip
	for _, c := range clips {
		if c.Seconds() >= 1 && c.Seconds() <= 8 {
			pick = append(pick, c)
		}
	}
	slices.SortStableFunc(pick, func(a, c realspeech.Clip) int {
		return int(1000*a.Seconds()) - int(1000*c.Seconds())
	})
	six := make([]realspeech.Clip, 6)
	for i := range six {
		six[i] = pick[i*(len(pick)-1)/5]
	}
	s := realspeech.Join(six, 2)
	r := route(b, pocketsphinx.Config{Decoders: 1})
	// The decoder is loaded before the clock starts.
	if _, err := r.Transcribe(context.Background(), six[0].PCM, stt.Config{Language: "en"}); err != nil {
		b.Fatal(err)
	}
	var lat, perSec []float64
	each := make([][]float64, len(six))
	b.ResetTimer()
	for range b.N {
		st, err := r.Open(context.Background(), stt.Config{Language: "en", Channels: 1})
		if err != nil {
			b.Fatal(err)
		}
		got := map[int]time.Time{} // turn index → when its words came
		done := make(chan struct{})
		go func() {
			defer close(done)
			for ws := range st.Words() {
				now := time.Now()
				for _, w := range ws {
					at := int((w.Start + w.End) / 2 * realspeech.SampleRate)
					for i, tr := range s.Turns {
						if _, seen := got[i]; !seen && at >= tr.Start-realspeech.SampleRate && at < tr.End+realspeech.SampleRate {
							got[i] = now
						}
					}
				}
			}
		}()
		t0 := time.Now()
		for off := 0; off < len(s.PCM); off += 320 {
			time.Sleep(time.Until(t0.Add(time.Duration(off) * time.Second / realspeech.SampleRate)))
			if err := st.Send(s.PCM[off:min(off+320, len(s.PCM))]); err != nil {
				b.Fatal(err)
			}
		}
		st.Close()
		<-done
		for i, tr := range s.Turns {
			when, ok := got[i]
			if !ok {
				b.Fatalf("no words for clip %d (%q)", i, tr.Clip.Text)
			}
			ms := float64(when.Sub(t0.Add(time.Duration(tr.End)*time.Second/realspeech.SampleRate))) / float64(time.Millisecond)
			lat = append(lat, ms)
			each[i] = append(each[i], ms)
			perSec = append(perSec, ms/tr.Clip.Seconds())
		}
	}
	var line []string
	for i, c := range six {
		line = append(line, fmt.Sprintf("%.1f s: %.0f", c.Seconds(), each[i]))
	}
	b.Logf("words after each clip's end (ms): %s", strings.Join(line, "; "))
	slices.Sort(lat)
	b.ReportMetric(lat[len(lat)/2], "ms-median")
	b.ReportMetric(lat[len(lat)-1], "ms-worst")
	b.ReportMetric(slices.Max(perSec), "ms/s-worst")
}

package transcribe

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/hearth-appliance/hearth/appliance/audio"
	"github.com/hearth-appliance/hearth/appliance/stt/realspeech"
	"github.com/hearth-appliance/hearth/appliance/stt/realspeech/realspeechtest"
)

// TestChunksKeepAQuietMicrophonesSpeech: recorded voices at -45 dBFS
// (twelve clips of five speakers, 1.5 s pauses) are all sent to the
// route. With the fixed -42 dBFS floor the chunker had, the quietest
// speakers' clips were dropped before any route heard them (batch heard
// 50.5 % of the words wrong where the engine alone heard 27.6 %).
func TestChunksKeepAQuietMicrophonesSpeech(t *testing.T) {
	some := spreadClips(t, 12)
	for _, level := range []float64{-20, -45} {
		s := realspeech.Join(some, 1.5).ScaledTo(level)
		inChunk := make([]bool, len(s.PCM))
		chunks := chunksOf(t, s.PCM)
		for _, c := range chunks {
			from := int(c.offset * audio.Rate)
			for i := from; i < from+len(c.pcm) && i < len(inChunk); i++ {
				inChunk[i] = true
			}
		}
		for _, tr := range s.Turns {
			kept := 0
			for i := tr.Start; i < tr.End; i++ {
				if inChunk[i] {
					kept++
				}
			}
			// The clips' own leading and trailing quiet may be left out.
			if share := float64(kept) / float64(tr.End-tr.Start); share < 0.8 {
				t.Errorf("%.0f dBFS: %s (%q): %.0f %% of it sent to the route", level, tr.Clip.ID, tr.Clip.Text, 100*share)
			}
		}
		t.Logf("%.0f dBFS: %d chunks for %d clips", level, len(chunks), len(s.Turns))
	}
}

// TestChunksEndAtPausesInNoise: recorded voices in white noise 20 dB
// under them (twelve clips, 1.5 s pauses) are sent a clip a chunk (or
// less, where a clip pauses), each with the pause's first 340 ms. The noise is above the fixed -42 dBFS
// floor, which took the whole recording for speech: it went out in 28 s
// chunks cut at their quietest frame, and the route's own VAD cut each
// utterance 200 ms after its last loud frame.
func TestChunksEndAtPausesInNoise(t *testing.T) {
	some := spreadClips(t, 12)
	s, err := realspeech.Condition(t.Context(), realspeech.Join(some, 1.5), "white20")
	if err != nil {
		t.Fatal(err)
	}
	longest := 0
	for _, tr := range s.Turns {
		longest = max(longest, tr.End-tr.Start)
	}
	chunks := chunksOf(t, s.PCM)
	for _, c := range chunks {
		// A clip's own pauses may end a chunk inside it; one chunk never
		// runs on over a whole pause between clips and the next clip.
		if len(c.pcm) > longest+3*audio.Rate/2 {
			t.Errorf("chunk at %.2f s is %.1f s long; the longest clip is %.1f s", c.offset, float64(len(c.pcm))/audio.Rate, float64(longest)/audio.Rate)
		}
	}
	if len(chunks) < len(s.Turns) {
		t.Errorf("%d chunks for %d clips, want one a clip at least", len(chunks), len(s.Turns))
	}
}

// spreadClips is n clips spread over the recorded English corpus (its
// five speakers); its absence skips the test unless the tools are
// required (make test requires them).
func spreadClips(t *testing.T, n int) []realspeech.Clip {
	t.Helper()
	clips := realspeechtest.English(t)
	var some []realspeech.Clip
	for i := range n {
		some = append(some, clips[i*len(clips)/n])
	}
	return some
}

// TestATwoWordNameIsOneChunk: alsa-utils' channel names ("Front …
// Center") hold 300-400 ms of silence between their two words, in white
// noise 20 dB under them; a chunk cut there gave the route each word
// alone ("friend" / "center"). A word or two alone waits for the rest
// of its phrase: each name is sent whole, in one chunk.
func TestATwoWordNameIsOneChunk(t *testing.T) {
	var names []realspeech.Clip
	for _, c := range realspeechtest.English(t) {
		if strings.HasPrefix(c.ID, "alsa/") {
			names = append(names, c)
		}
	}
	s, err := realspeech.Condition(t.Context(), realspeech.Join(names, 1.5), "white20")
	if err != nil {
		t.Fatal(err)
	}
	in := make([]int, len(s.Turns)) // chunks holding some of each name's sound
	for _, c := range chunksOf(t, s.PCM) {
		from := int(c.offset * audio.Rate)
		for i, tr := range s.Turns {
			// a clip's own quiet edges (up to 0.2 s) may fall either side
			if min(tr.End, from+len(c.pcm))-max(tr.Start, from) > audio.Rate/5 {
				in[i]++
			}
		}
	}
	for i, n := range in {
		if n != 1 {
			t.Errorf("%q is in %d chunks, want 1", s.Turns[i].Clip.Text, n)
		}
	}
}

// chunksOf is every chunk the chunker makes of pcm.
func chunksOf(t *testing.T, pcm []int16) []chunk {
	t.Helper()
	src, err := audio.NewRawPCM(bytes.NewReader(realspeech.Bytes(pcm)), audio.Rate, 1)
	if err != nil {
		t.Fatal(err)
	}
	ch := newChunker(src)
	var out []chunk
	for {
		c, err := ch.next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
}

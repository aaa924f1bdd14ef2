package realspeech_test

import (
	"context"
	"errors"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/hearth-appliance/hearth/appliance/stt/realspeech"
)

// need fails under make test (scripts/deps.sh test installs the packages)
// and skips elsewhere when one is missing.
func need(t *testing.T, err error) {
	t.Helper()
	if err == nil {
		return
	}
	if errors.Is(err, realspeech.ErrMissing) && os.Getenv("HEARTH_REQUIRE_E2E_TOOLS") == "" {
		t.Skip(err)
	}
	t.Fatal(err)
}

func TestEnglishCorpus(t *testing.T) {
	clips, err := realspeech.English(context.Background())
	need(t, err)
	speakers := map[string]int{}
	words, secs := 0, 0.0
	for _, c := range clips {
		if c.Language != "en" || c.Text == "" || strings.ContainsAny(c.Text, "0123456789[]") {
			t.Errorf("%s: language %q, text %q", c.ID, c.Language, c.Text)
		}
		if c.Seconds() < 0.5 || c.Seconds() > 30 {
			t.Errorf("%s: %.2f s", c.ID, c.Seconds())
		}
		speakers[c.Speaker]++
		words += c.Words()
		secs += c.Seconds()
	}
	want := map[string]int{"en_US_f_Allison": 40, "librivox": 5, "cards": 5, "goforward": 1, "tidigits-dhd": 1, "alsa": 8}
	if realspeech.JFKPath() != "" {
		want["jfk"] = 1
	}
	for s, n := range want {
		if speakers[s] != n {
			t.Errorf("%s: %d clips, want %d", s, speakers[s], n)
		}
	}
	t.Logf("%d clips, %d speakers, %d words, %.0f s of speech", len(clips), len(speakers), words, secs)
	if words < 400 || secs < 150 {
		t.Errorf("%d words in %.0f s: the corpus is too small to measure with", words, secs)
	}
}

func TestVoicesSpeakTheirOwnLanguage(t *testing.T) {
	voices, err := realspeech.VoiceClips(context.Background(), 3)
	need(t, err)
	for i, v := range realspeech.Voices {
		clips := voices[i]
		if len(clips) != 3 {
			t.Fatalf("%s: %d clips", v.Speaker, len(clips))
		}
		for _, c := range clips {
			if c.Speaker != v.Speaker || c.Language != v.Language || c.Words() < 3 || c.Seconds() < 0.5 {
				t.Errorf("%+v: %q, %.2f s", v, c.Text, c.Seconds())
			}
		}
	}
	s := realspeech.Conversation(voices, 10, 1)
	if len(s.Turns) != 10 || s.Turns[0].Clip.Speaker != "en_US_f_Allison" || s.Turns[6].Clip.Speaker != "fr_CA_f_June" {
		t.Fatalf("conversation of %d turns: %+v", len(s.Turns), s.Turns[:2])
	}
}

// TestNoiseAndLevel: the stream's speech ends up at the SNR and level
// asked for, and the turns point at the mixed samples.
func TestNoiseAndLevel(t *testing.T) {
	clip := func(id string, n int, amp float64) realspeech.Clip {
		pcm := make([]int16, n)
		for i := range pcm {
			pcm[i] = int16(amp * math.Sin(float64(i)*0.3))
		}
		return realspeech.Clip{ID: id, Text: "a b", PCM: pcm}
	}
	s := realspeech.Join([]realspeech.Clip{clip("x", 16000, 8000), clip("y", 8000, 4000)}, 0.5)
	if s.Seconds() != 3 || len(s.Turns) != 2 || s.Turns[1].Start != 8000+16000+8000 || s.Text() != "a b a b" {
		t.Fatalf("joined: %.2f s, turns %+v", s.Seconds(), s.Turns)
	}
	for _, snr := range []float64{20, 10, 0} {
		noisy := s.WithNoise(realspeech.WhiteNoise(16000, 1), snr)
		var ps, pn float64
		n := 0
		for _, tr := range s.Turns {
			for i := tr.Start; i < tr.End; i++ {
				d := float64(noisy.PCM[i]) - float64(s.PCM[i])
				ps += float64(s.PCM[i]) * float64(s.PCM[i])
				pn += d * d
				n++
			}
		}
		if got := 10 * math.Log10(ps/pn); math.Abs(got-snr) > 0.5 {
			t.Errorf("asked %.0f dB SNR, got %.2f", snr, got)
		}
		if noisy.Turns[0].Clip.PCM[100] != noisy.PCM[s.Turns[0].Start+100] {
			t.Errorf("a turn's clip is not the mixed audio")
		}
	}
	quiet := s.ScaledTo(-45)
	if got := quiet.Level(); math.Abs(got+45) > 0.1 {
		t.Errorf("scaled to -45 dBFS: %.2f", got)
	}
	babble := realspeech.Babble([][]int16{s.PCM, s.PCM[100:], s.PCM[300:]}, 20000)
	if len(babble) != 20000 {
		t.Fatalf("babble of %d samples", len(babble))
	}
}

func TestConversationTakesTurns(t *testing.T) {
	mk := func(speaker string, n int) []realspeech.Clip {
		var cs []realspeech.Clip
		for range n {
			cs = append(cs, realspeech.Clip{Speaker: speaker, Text: speaker, PCM: make([]int16, 1600)})
		}
		return cs
	}
	s := realspeech.Conversation([][]realspeech.Clip{mk("a", 3), mk("b", 1), mk("c", 3)}, 6, 0.2)
	var order []string
	for _, tr := range s.Turns {
		order = append(order, tr.Clip.Speaker)
	}
	if got := strings.Join(order, ""); got != "abcaca" {
		t.Fatalf("turns %q, want abcaca", got)
	}
}

// TestConditions: each named condition keeps the stream's turns and text
// and puts its speech at the SNR or level the name says; the same name
// gives the same samples.
func TestConditions(t *testing.T) {
	clips, err := realspeech.English(context.Background())
	need(t, err)
	s := realspeech.Join(clips[:3], 1)
	for _, tc := range []struct {
		name  string
		snr   float64 // of the speech against what was added; 0: none added
		level float64 // of the speech, dBFS; 0: unchanged
	}{
		{"clean", 0, 0},
		{"white20", 20, 0},
		{"white10", 10, 0},
		{"babble20", 20, 0},
		{"babble10", 10, 0},
		{"quiet45", 0, -45},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := realspeech.Condition(context.Background(), s, tc.name)
			need(t, err)
			again, _ := realspeech.Condition(context.Background(), s, tc.name)
			if len(got.PCM) != len(s.PCM) || got.Text() != s.Text() || len(got.Turns) != len(s.Turns) || !slices.Equal(got.PCM, again.PCM) {
				t.Fatalf("%d samples, %d turns, %q; the same twice: %v", len(got.PCM), len(got.Turns), got.Text(), slices.Equal(got.PCM, again.PCM))
			}
			var ps, pn float64
			for _, tr := range s.Turns {
				for i := tr.Start; i < tr.End; i++ {
					d := float64(got.PCM[i]) - float64(s.PCM[i])
					ps += float64(s.PCM[i]) * float64(s.PCM[i])
					pn += d * d
				}
			}
			switch {
			case tc.snr != 0:
				if snr := 10 * math.Log10(ps/pn); math.Abs(snr-tc.snr) > 0.5 {
					t.Errorf("SNR %.2f dB, want %.0f", snr, tc.snr)
				}
			case tc.level != 0:
				if l := got.Level(); math.Abs(l-tc.level) > 0.1 {
					t.Errorf("speech at %.2f dBFS, want %.0f", l, tc.level)
				}
			case pn != 0:
				t.Errorf("clean audio changed")
			}
		})
	}
	if _, err := realspeech.Condition(context.Background(), s, "pink20"); err == nil {
		t.Error("an unknown condition gave no error")
	}
}

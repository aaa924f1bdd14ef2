package pocketsphinx_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/hearth-appliance/hearth/appliance/logtest"
	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/appliance/stt/realspeech"
	"github.com/hearth-appliance/hearth/localstt/pocketsphinx"
)

const marker = "[speech in another language]"

// voicePrompts is n prompts of each asterisk voice, by language.
func voicePrompts(t testing.TB, n int) map[string][]realspeech.Clip {
	t.Helper()
	clips, err := realspeech.VoiceClips(context.Background(), n)
	need(t, fmt.Sprint("the asterisk voices (asterisk-core-sounds-*-g722): ", err), err == nil)
	out := map[string][]realspeech.Clip{}
	for i, v := range realspeech.Voices {
		out[v.Language] = clips[i]
	}
	return out
}

// TestSpeechInAnotherLanguageIsMarked: two recorded French, Italian,
// Spanish and Russian prompts in one recording come back from the batch
// route as the marker (all but at most the first, which may be judged
// on its own), not as English words; Allison's English prompts and
// Festival's English voice are never marked; in a live stream, French
// then English come back as the marker, then the English words; the
// route says so in its log once.
func TestSpeechInAnotherLanguageIsMarked(t *testing.T) {
	var log logtest.Buffer
	r := route(t, pocketsphinx.Config{Decoders: 1, Logger: slog.New(slog.NewTextHandler(&log, nil))})
	voices := voicePrompts(t, 5)
	festival := realspeech.Clip{ID: "festival", Language: "en", Text: "please send a report to my manager tomorrow morning",
		PCM: speech(t, "please send a report to my manager tomorrow morning", 16000)}
	transcribe := func(clips []realspeech.Clip) stt.Transcript {
		t.Helper()
		tr, err := r.Transcribe(context.Background(), realspeech.Join(clips, 1).PCM, stt.Config{Language: "en"})
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	for _, lang := range []string{"fr", "it", "es", "ru"} {
		tr := transcribe(voices[lang][1:3])
		marked := 0
		for _, seg := range tr.Segments {
			if seg.Text == marker {
				marked++
			}
		}
		if len(tr.Segments) == 0 || marked < len(tr.Segments)-1 {
			t.Errorf("%s: %d of %d utterances marked, want all but the first at most: %q", lang, marked, len(tr.Segments), tr.Text)
		}
	}
	tr := transcribe(append(slices.Clone(voices["en"][1:3]), festival))
	if tr.Text == "" || strings.Contains(tr.Text, marker) {
		t.Errorf("English marked or unheard: %q", tr.Text)
	}
	// Live: French, then English, in one stream.
	heard := live(t, r, realspeech.Join([]realspeech.Clip{voices["fr"][1], voices["fr"][2], festival}, 1).PCM)
	if !strings.Contains(heard, marker) || !strings.Contains(heard, "report to my manager") {
		t.Errorf("live: heard %q, want the marker, then the English words", heard)
	}
	if n := strings.Count(log.String(), "speech in another language"); n != 1 {
		t.Errorf("the route logged the marking %d times, want once:\n%s", n, log.String())
	}
}

// TestMeasureLanguageFit prints how well utterances fit English, per
// voice, at the threshold (HEARTH_MEASURE_LANGUAGE=1; the figures in
// docs/benchmarks.md): forty prompts of each asterisk voice, the English
// corpus's other recordings, Festival's English voice, and Allison's
// prompts in white noise at 20 and 10 dB.
func TestMeasureLanguageFit(t *testing.T) {
	if os.Getenv("HEARTH_MEASURE_LANGUAGE") == "" {
		t.Skip("a measurement: HEARTH_MEASURE_LANGUAGE=1")
	}
	need(t, "PocketSphinx (libpocketsphinx-dev, pocketsphinx-en-us)", pocketsphinx.Available)
	e, err := pocketsphinx.NewEngine("")
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	type clip struct {
		id  string
		pcm []int16
	}
	groups := map[string][]clip{}
	var order []string
	add := func(group, id string, pcm []int16) {
		if _, ok := groups[group]; !ok {
			order = append(order, group)
		}
		groups[group] = append(groups[group], clip{id, pcm})
	}
	voices := voicePrompts(t, 40)
	for _, v := range realspeech.Voices {
		for _, c := range voices[v.Language] {
			add(v.Speaker, c.ID, c.PCM)
		}
	}
	corpus, err := realspeech.English(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range corpus {
		if c.Speaker != realspeech.Voices[0].Speaker {
			add("other English recordings", c.ID, c.PCM)
		}
	}
	for _, s := range append(slices.Clone(sentences), "the meeting has been moved to thursday at three in the big room",
		"can you turn off the lights in the kitchen when you go to bed", "yesterday the train was late again so i missed the film") {
		add("festival en", s, speech(t, s, 16000))
	}
	for _, db := range []float64{20, 10} {
		for i, c := range voices["en"] {
			s := realspeech.Join([]realspeech.Clip{c}, 0.3)
			add(fmt.Sprintf("Allison, white noise %.0f dB", db), c.ID, s.WithNoise(realspeech.WhiteNoise(len(s.PCM), uint64(i+1)), db).PCM)
		}
	}
	for _, g := range order {
		var fits []float64
		marked, doubted := 0, 0
		judge := pocketsphinx.Judge() // the group's clips as one stream
		foreign := strings.HasPrefix(g, "fr") || strings.HasPrefix(g, "it") || strings.HasPrefix(g, "es") || strings.HasPrefix(g, "ru")
		for _, c := range groups[g] {
			words, fit, checked, err := e.Fit(c.pcm)
			if err != nil {
				t.Fatal(err)
			}
			if !checked {
				continue
			}
			fits = append(fits, fit)
			if judge(fit, checked) {
				marked++
			}
			if fit < pocketsphinx.DoubtFit {
				doubted++
			}
			if (fit < pocketsphinx.DoubtFit) != foreign {
				t.Logf("  %s: fit %.1f, %.1f s, heard %q", c.id, fit, float64(len(c.pcm))/16000, words)
			}
		}
		slices.Sort(fits)
		if len(fits) == 0 {
			t.Logf("%-32s %d clips, none long enough", g, len(groups[g]))
			continue
		}
		t.Logf("%-32s %2d clips, %2d judged: fit %.1f .. %.1f (median %.1f), %d under %.0f, %d marked in turn (%.0f %%)", g, len(groups[g]),
			len(fits), fits[0], fits[len(fits)-1], fits[len(fits)/2], doubted, pocketsphinx.DoubtFit, marked, 100*float64(marked)/float64(len(fits)))
	}
}

//go:build pocketsphinx && cgo

package pocketsphinx_test

import (
	"os"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/hearth-appliance/hearth/appliance/stt/realspeech"
	"github.com/hearth-appliance/hearth/localstt/pocketsphinx"
)

// testdata is pocketsphinx-testdata's recorded voices: a man's commands
// and numbers (16 kHz raw samples) and a LibriVox reader (16 kHz WAV).
const testdata = "/usr/share/pocketsphinx/test/data/"

// recording is one of testdata's recordings as 16 kHz mono PCM.
func recording(t testing.TB, name string) []int16 {
	t.Helper()
	b, err := os.ReadFile(testdata + name)
	need(t, "pocketsphinx-testdata", err == nil)
	if len(b) > 44 && string(b[:4]) == "RIFF" {
		if string(b[36:40]) != "data" {
			t.Fatalf("%s: not a plain PCM WAV", name)
		}
		b = b[44:]
	}
	return realspeech.FromBytes(b)
}

func decoder(t testing.TB, lexicon bool) *pocketsphinx.Decoder {
	t.Helper()
	d, err := pocketsphinx.LoadDecoder(pocketsphinx.DefaultModelDir, lexicon)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(d.Close)
	return d
}

// TestLexiconHearsAsTheWholeDictionary: a decoder reads only the
// dictionary's entries for words its LM knows (79,420 of Debian's 134,723,
// ~12 MB less per decoder), and hears recorded and synthetic speech
// exactly as one that read the whole dictionary: the same words, times
// and English fit.
func TestLexiconHearsAsTheWholeDictionary(t *testing.T) {
	pcm := map[string][]int16{}
	for _, name := range []string{"numbers.raw", "librivox/sense_and_sensibility_01_austen_64kb-0880.wav"} {
		pcm[name] = recording(t, name)
	}
	pcm["allison"], _ = allison(t, 0.3, allisonPrompts[5])
	pcm["festival"] = speech(t, sentences[1], 16000)
	whole, lexicon := decoder(t, false), decoder(t, true)
	// "aaberg" is in the dictionary, not in the LM.
	if !whole.Knows("aaberg") || !whole.Knows("forward") || lexicon.Knows("aaberg") || !lexicon.Knows("forward") {
		t.Fatalf("knows aaberg, forward: the whole dictionary %v, %v; the lexicon %v, %v (want true, true; false, true)",
			whole.Knows("aaberg"), whole.Knows("forward"), lexicon.Knows("aaberg"), lexicon.Knows("forward"))
	}
	for name, p := range pcm {
		want, err := whole.Decode(p)
		if err != nil {
			t.Fatal(err)
		}
		got, err := lexicon.Decode(p)
		if err != nil {
			t.Fatal(err)
		}
		if pocketsphinx.Words(want) == "" {
			t.Fatalf("%s: nothing heard", name)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the lexicon heard\n%+v\nthe whole dictionary\n%+v", name, got, want)
		}
	}
}

// TestDecodersTogetherHearWhatEachHearsAlone: decoders decoding different
// recordings at the same time, on as many threads, hear each recording
// exactly as a decoder alone does (words, times, English fit). Nothing of
// one decoder may be written by another: PocketSphinx's trie LM keeps a
// cache of the last history's back-off weights in the model, so one LM
// given to two decoders (ps_set_lm) scored the same audio differently
// when another decoder ran beside it.
func TestDecodersTogetherHearWhatEachHearsAlone(t *testing.T) {
	names := []string{"goforward.raw", "something.raw", "librivox/sense_and_sensibility_01_austen_64kb-0930.wav"}
	pcm := make([][]int16, len(names))
	for i, name := range names {
		pcm[i] = recording(t, name)
	}
	decoders := make([]*pocketsphinx.Decoder, len(names))
	for i := range decoders {
		decoders[i] = decoder(t, true)
	}
	alone := make([]pocketsphinx.Utterance, len(names))
	for i, p := range pcm {
		u, err := decoders[0].Decode(p)
		if err != nil {
			t.Fatal(err)
		}
		if pocketsphinx.Words(u) == "" {
			t.Fatalf("%s: nothing heard", names[i])
		}
		alone[i] = u
	}
	var wg sync.WaitGroup
	for i, d := range decoders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Each decoder hears two of the recordings, each while the
			// others hear the other recordings.
			for k := range 2 {
				n := (i + k) % len(pcm)
				u, err := d.Decode(pcm[n])
				if err != nil {
					t.Error(err)
					return
				}
				if !reflect.DeepEqual(u, alone[n]) {
					t.Errorf("decoder %d, beside the others, heard %s as\n%+v\nalone\n%+v", i, names[n], u, alone[n])
				}
			}
		}()
	}
	wg.Wait()
}

// TestMeasureDecoderMemory loads four decoders one by one, each decoding
// 2 s of speech, and logs the process's anonymous memory and PSS after
// each (HEARTH_MEASURE_DECODER_MEMORY=lexicon, or =whole for decoders
// that read the whole dictionary; the figures in docs/benchmarks.md).
func TestMeasureDecoderMemory(t *testing.T) {
	mode := os.Getenv("HEARTH_MEASURE_DECODER_MEMORY")
	if mode == "" {
		t.Skip("a measurement: HEARTH_MEASURE_DECODER_MEMORY=lexicon or =whole")
	}
	pcm := recording(t, "goforward.raw")[:2*16000]
	t.Logf("%s: before any decoder: anonymous %.1f MB, PSS %.1f MB", mode, procKB(t, "status", "RssAnon:")/1e3, procKB(t, "smaps_rollup", "Pss:")/1e3)
	for n := range 4 {
		d := decoder(t, mode == "lexicon")
		if _, err := d.Decode(pcm); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d decoders: anonymous %.1f MB, PSS %.1f MB", mode, n+1, procKB(t, "status", "RssAnon:")/1e3, procKB(t, "smaps_rollup", "Pss:")/1e3)
	}
}

// procKB is a kB figure of /proc/self/file's line starting with key.
func procKB(t testing.TB, file, key string) float64 {
	b, err := os.ReadFile("/proc/self/" + file)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, key); ok {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb
		}
	}
	t.Fatalf("no %s in /proc/self/%s", key, file)
	return 0
}

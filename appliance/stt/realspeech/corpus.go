package realspeech

import (
	"bufio"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// Where the Debian packages put their files.
var (
	asteriskSounds = "/usr/share/asterisk/sounds"
	asteriskDocs   = "/usr/share/doc"
	sphinxData     = "/usr/share/pocketsphinx/test/data"
	alsaSounds     = "/usr/share/sounds/alsa"
)

// Voice is one of the five asterisk voices.
type Voice struct {
	Speaker  string // the sound folder's name, e.g. en_US_f_Allison
	Language string
	pkg      string // the Debian package with its texts (its audio is pkg+"-g722")
}

// Voices are the asterisk voices, each speaking its own language. The
// Spanish prompts are also credited to an Allison; the folder names keep
// the two apart.
var Voices = []Voice{
	{"en_US_f_Allison", "en", "asterisk-core-sounds-en"},
	{"fr_CA_f_June", "fr", "asterisk-core-sounds-fr"},
	{"it_IT_m_Carlo", "it", "asterisk-core-sounds-it"},
	{"es_MX_f_Allison", "es", "asterisk-core-sounds-es"},
	{"ru_RU_f_IvrvoiceRU", "ru", "asterisk-core-sounds-ru"},
}

// englishPrompts is how many of Allison's prompts the English corpus
// takes: with the other sources about six minutes of speech.
const englishPrompts = 40

var (
	englishOnce sync.Once
	english     []Clip
	englishErr  error
)

// English is the recognition corpus: 40 of Allison's prompts (evenly
// spread over the ones whose text is plain words), the LibriVox reader,
// CMU cards, a TIDIGITS speaker, "go forward ten meters", the eight
// channel names of alsa-utils and, when whisper.cpp's sources are on this
// machine, jfk.wav. Clips are read once per process and shared: callers
// must not change their samples.
func English(ctx context.Context) ([]Clip, error) {
	englishOnce.Do(func() { english, englishErr = loadEnglish(ctx) })
	return english, englishErr
}

func loadEnglish(ctx context.Context) ([]Clip, error) {
	prompts, err := Prompts(ctx, Voices[0], englishPrompts)
	if err != nil {
		return nil, err
	}
	clips := prompts
	for _, load := range []func(context.Context) ([]Clip, error){librivox, cards, sphinxRaw, channelNames, jfk} {
		c, err := load(ctx)
		if err != nil {
			return nil, err
		}
		clips = append(clips, c...)
	}
	return clips, nil
}

// Prompts returns n of a voice's prompts, evenly spread over those whose
// text is plain words (no markup, no numbers beyond single digits, which
// are spelt out), in name order; n <= 0 returns them all.
func Prompts(ctx context.Context, v Voice, n int) ([]Clip, error) {
	texts, err := promptTexts(v)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(texts))
	for name := range texts {
		names = append(names, name)
	}
	slices.Sort(names)
	if n > 0 && n < len(names) {
		picked := make([]string, n)
		for i := range n {
			picked[i] = names[i*len(names)/n]
		}
		names = picked
	}
	clips := make([]Clip, len(names))
	errs := make([]error, len(names))
	// ffmpeg's start-up is most of a clip's cost: a few at once.
	sem := make(chan struct{}, 4)
	var wg sync.WaitGroup
	for i, name := range names {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			pcm, err := decode(ctx, filepath.Join(asteriskSounds, v.Speaker, name+".g722"), "-f", "g722")
			if err != nil {
				errs[i] = fmt.Errorf("%s: %w", v.pkg+"-g722", err)
				return
			}
			clips[i] = Clip{ID: v.Speaker + "/" + name, Speaker: v.Speaker, Language: v.Language, Text: texts[name], PCM: pcm}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return clips, nil
}

// promptTexts reads a voice's core-sounds-XX.txt ("name: text" lines) and
// keeps the prompts of the main folder whose audio is installed and whose
// text is words only, 3 to 30 of them.
func promptTexts(v Voice) (map[string]string, error) {
	lang := strings.TrimPrefix(v.pkg, "asterisk-core-sounds-")
	path := filepath.Join(asteriskDocs, v.pkg, "core-sounds-"+lang+".txt.gz")
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("the prompts' texts %s: %s %w", path, v.pkg, ErrMissing)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	texts := map[string]string{}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimPrefix(sc.Text(), "\uFEFF")
		name, text, ok := strings.Cut(line, ":")
		if !ok || strings.HasPrefix(line, ";") || strings.ContainsAny(name, "/ ") {
			continue
		}
		text, ok = plainText(text)
		if n := len(strings.Fields(text)); !ok || n < 3 || n > 30 {
			continue
		}
		if _, err := os.Stat(filepath.Join(asteriskSounds, v.Speaker, name+".g722")); err != nil {
			continue
		}
		texts[name] = text
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(texts) == 0 {
		return nil, fmt.Errorf("no prompt of %s has its audio in %s: %s-g722 %w", v.pkg, filepath.Join(asteriskSounds, v.Speaker), v.pkg, ErrMissing)
	}
	return texts, nil
}

var digitWords = []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"}

// plainText spells single digits out and refuses text with markup
// ([tones]), longer numbers or symbols a speaker reads differently from
// how they are written.
func plainText(s string) (string, bool) {
	if strings.ContainsAny(s, "[]<>#*@$%&=+/_|\\") {
		return "", false
	}
	words := strings.Fields(s)
	for i, w := range words {
		core := strings.Trim(w, ".,;:!?\"'()…")
		if strings.ContainsAny(core, "0123456789") {
			if len(core) != 1 {
				return "", false
			}
			words[i] = strings.Replace(w, core, digitWords[core[0]-'0'], 1)
		}
	}
	return strings.Join(words, " "), true
}

// librivox is the LibriVox reader of Sense and Sensibility, with the
// package's transcription.
func librivox(ctx context.Context) ([]Clip, error) {
	return transcribed(ctx, filepath.Join(sphinxData, "librivox"), "transcription", "librivox", ".wav")
}

// cards is CMU's "cards" speaker, with the package's transcription.
func cards(ctx context.Context) ([]Clip, error) {
	return transcribed(ctx, filepath.Join(sphinxData, "cards"), "cards.transcription", "cards", ".wav")
}

// transcribed reads a Sphinx transcription ("<s> words </s> (id)" lines)
// and the audio file of each line.
func transcribed(ctx context.Context, dir, file, speaker, ext string) ([]Clip, error) {
	b, err := os.ReadFile(filepath.Join(dir, file))
	if err != nil {
		return nil, fmt.Errorf("pocketsphinx-testdata: %w", ErrMissing)
	}
	var clips []Clip
	for _, line := range strings.Split(string(b), "\n") {
		open, close := strings.LastIndexByte(line, '('), strings.LastIndexByte(line, ')')
		if open < 0 || close < open {
			continue
		}
		id := line[open+1 : close]
		text := strings.Join(strings.Fields(strings.NewReplacer("<s>", "", "</s>", "").Replace(line[:open])), " ")
		pcm, err := decode(ctx, filepath.Join(dir, id+ext))
		if err != nil {
			return nil, fmt.Errorf("pocketsphinx-testdata: %w", err)
		}
		clips = append(clips, Clip{ID: speaker + "/" + id, Speaker: speaker, Language: "en", Text: text, PCM: pcm})
	}
	return clips, nil
}

// sphinxRaw are the raw recordings of pocketsphinx-testdata whose words
// its tests name: "go forward" (its grammar's sentence) and a TIDIGITS
// speaker (the digits are the file's name, z is zero).
func sphinxRaw(ctx context.Context) ([]Clip, error) {
	var clips []Clip
	for _, c := range []struct{ file, id, speaker, text string }{
		{"goforward.raw", "goforward", "goforward", "go forward ten meters"},
		{"tidigits/dhd.2934z.raw", "dhd.2934z", "tidigits-dhd", "two nine three four zero"},
	} {
		pcm, err := decode(ctx, filepath.Join(sphinxData, c.file), "-f", "s16le", "-ar", rateArg, "-ac", "1")
		if err != nil {
			return nil, fmt.Errorf("pocketsphinx-testdata: %w", err)
		}
		clips = append(clips, Clip{ID: c.speaker + "/" + c.id, Speaker: c.speaker, Language: "en", Text: c.text, PCM: pcm})
	}
	return clips, nil
}

// channelNames are alsa-utils' speaker-test voice naming each channel.
func channelNames(ctx context.Context) ([]Clip, error) {
	var clips []Clip
	for _, name := range []string{"Front_Left", "Front_Center", "Front_Right", "Side_Left", "Side_Right", "Rear_Left", "Rear_Center", "Rear_Right"} {
		pcm, err := decode(ctx, filepath.Join(alsaSounds, name+".wav"))
		if err != nil {
			return nil, fmt.Errorf("alsa-utils: %w", err)
		}
		clips = append(clips, Clip{ID: "alsa/" + name, Speaker: "alsa", Language: "en", Text: strings.ToLower(strings.ReplaceAll(name, "_", " ")), PCM: pcm})
	}
	return clips, nil
}

// jfkText is what jfk.wav says.
const jfkText = "and so my fellow americans ask not what your country can do for you ask what you can do for your country"

// jfk is whisper.cpp's sample when it is on this machine (none, not an
// error, otherwise): JFKPath says where it was looked for.
func jfk(ctx context.Context) ([]Clip, error) {
	path := JFKPath()
	if path == "" {
		return nil, nil
	}
	pcm, err := decode(ctx, path)
	if err != nil {
		return nil, err
	}
	return []Clip{{ID: "jfk/jfk", Speaker: "jfk", Language: "en", Text: jfkText, PCM: pcm}}, nil
}

// whisperBindings is the Go module of whisper.cpp's bindings, whose
// samples folder has jfk.wav.
const whisperBindings = "github.com/ggerganov/whisper.cpp/bindings/go"

// JFKPath finds jfk.wav: $HEARTH_JFK_WAV, whisper.cpp's build cache
// (scripts/whisper.sh copies it there), or the bindings' Go module in the
// module cache. "" when none is there.
func JFKPath() string {
	candidates := []string{os.Getenv("HEARTH_JFK_WAV")}
	if cache := os.Getenv("WHISPER_CACHE"); cache != "" {
		matches, _ := filepath.Glob(filepath.Join(cache, "*", "jfk.wav"))
		candidates = append(candidates, matches...)
	}
	if root := moduleRoot(); root != "" {
		matches, _ := filepath.Glob(filepath.Join(root, ".cache", "whisper", "*", "jfk.wav"))
		candidates = append(candidates, matches...)
	}
	if out, err := exec.Command("go", "env", "GOMODCACHE").Output(); err == nil {
		matches, _ := filepath.Glob(filepath.Join(strings.TrimSpace(string(out)), whisperBindings+"@*", "samples", "jfk.wav"))
		slices.Reverse(matches) // the newest version first
		candidates = append(candidates, matches...)
	}
	for _, c := range candidates {
		if c == "" {
			continue
		}
		if st, err := os.Stat(c); err == nil && !st.IsDir() {
			return c
		}
	}
	return ""
}

// moduleRoot is the folder of this repository's go.mod above the working
// directory, or "".
func moduleRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

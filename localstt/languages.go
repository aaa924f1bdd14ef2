package localstt

import (
	"slices"

	"github.com/hearth-appliance/hearth/appliance/stt"
)

// whisperLanguages are the languages whisper's multilingual models know.
var whisperLanguages = []string{"en", "zh", "de", "es", "ru", "ko", "fr", "ja", "pt", "tr", "pl", "ca", "nl", "ar", "sv", "it", "id",
	"hi", "fi", "vi", "he", "uk", "el", "ms", "cs", "ro", "da", "hu", "ta", "no", "th", "ur", "hr", "bg", "lt", "la", "mi", "ml", "cy",
	"sk", "te", "fa", "lv", "bn", "sr", "az", "sl", "kn", "et", "mk", "br", "eu", "is", "hy", "ne", "mn", "bs", "kk", "sq", "sw", "gl",
	"mr", "pa", "si", "km", "sn", "yo", "so", "af", "oc", "ka", "be", "tg", "sd", "gu", "am", "yi", "lo", "uz", "fo", "ht", "ps", "tk",
	"nn", "mt", "sa", "lb", "my", "bo", "tl", "mg", "as", "tt", "haw", "ln", "ha", "ba", "jw", "su", "yue"}

// Languages lists the language codes whisper knows, the widest set any
// route serves, for clients that ask which languages the appliance hears.
func Languages() []string { return slices.Clone(whisperLanguages) }

func knownLanguage(code string) bool { return slices.Contains(whisperLanguages, code) }

// A session's language is what whisper is told to write, not what was
// said: told "en", it writes French speech as English-sounding nonsense.
// A multilingual model can say what it hears, so the route asks it, and
// an utterance it is sure is in another language comes back as one
// marker instead of the nonsense.
const (
	otherSure    = 0.8  // the other language's probability
	sessionDoubt = 0.05 // the session language's, at most
)

// otherLanguage returns the language the model is sure was spoken instead
// of want (probs by language id, name the id's code), or "".
func otherLanguage(probs []float32, want string, name func(int) string) string {
	top, wantP := -1, float32(0)
	for id, p := range probs {
		if top < 0 || p > probs[top] {
			top = id
		}
		if name(id) == want {
			wantP = p
		}
	}
	if top < 0 || name(top) == want || probs[top] < otherSure || wantP > sessionDoubt {
		return ""
	}
	return name(top)
}

// otherLanguageMarker is the text an utterance in another language
// becomes.
func otherLanguageMarker(code string) string { return stt.OtherLanguage + ": " + code + "]" }

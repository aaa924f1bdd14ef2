package builtin

import (
	"strings"

	"github.com/hearth-appliance/hearth/appliance/pipeline/lexicon"
)

// Precompiled tables. The time grammar asks of nearly every word of a
// transcript, several times over, whether it could start a cue or is a
// number word; each question was four to six lookups in separate sets.
// These unions of the same sets answer the common case (no) in one
// lookup. They are built from the rules' own sets, so a word added there
// is here too.

// simpleNumberWords are the unhyphenated number words numberWord knows.
var simpleNumberWords = numberKeys(unitNumbers, tensNumbers, unitOrdinals, tensOrdinals)

// cueFirstWords are the unhyphenated words cueScanner.at may start a cue
// with (digits aside): cueStarts, the number words, "mid" and holidays.
var cueFirstWords = lexicon.Union(cueStarts, simpleNumberWords, holidays, lexicon.NewSet("mid early late later start beginning middle"))

func numberKeys(maps ...map[string]int) lexicon.Set {
	return lexicon.Build(func(add func(string)) {
		for _, m := range maps {
			for w := range m {
				add(w)
			}
		}
	})
}

// mayStartCue reports whether the word passes cueScanner.at's first filter:
// a digit, or a word a cue can begin with.
func mayStartCue(cw *cword) bool {
	w := cw.lower
	if w == "" {
		return false
	}
	if w[0] >= '0' && w[0] <= '9' || cw.is(wcCueFirst) {
		return true
	}
	// compounds ("twenty-five", "thirty-first") only when hyphenated
	return strings.IndexByte(w, '-') >= 0 && numberWord(w)
}

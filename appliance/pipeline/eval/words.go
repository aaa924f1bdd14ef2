package eval

import (
	"strings"
	"unicode"
)

// stopWords carry no content of their own: matching on them would pair
// "Call the bank" with "Call the vet".
var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an the and or but to for of with at on in by from about into onto up off out
		over under is are was be been am i me my mine we us our you your yours he him his she her they them their it its
		this that these those there here some any all both each just so too very also will would should could can shall
		may might must do does did have has had not no yes please then than as if when what which who whom how
		i'll i'm i've we'll we're you'll he's she's it's let's get got user`) {
		stopWords[w] = true
	}
}

// contentWords are the words of s that carry its meaning, lightly stemmed
// ("reports" and "report", "Maria's" and "Maria" are one word), each once.
func contentWords(s string) []string {
	var out []string
	seen := map[string]bool{}
	for _, f := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '’'
	}) {
		f = strings.Trim(strings.ReplaceAll(f, "’", "'"), "'")
		if f == "" || stopWords[f] {
			continue
		}
		w := stem(f)
		if k, ok := kinWords[w]; ok {
			w = k
		}
		if w == "" || stopWords[w] || seen[w] {
			continue
		}
		seen[w] = true
		out = append(out, w)
	}
	return out
}

// kinWords are one relation however it is called: a label's "father" is
// the "dad" of what was said.
var kinWords = map[string]string{"dad": "father", "mom": "mother", "mum": "mother", "grandma": "grandmother",
	"granny": "grandmother", "nana": "grandmother", "grandpa": "grandfather"}

func stem(w string) string {
	w = strings.TrimSuffix(w, "'s")
	if n := ordinalDigits(w); n != "" {
		return n // "June 12th" is the "June 12" of what was written
	}
	switch {
	case len(w) > 5 && strings.HasSuffix(w, "ing"):
		return w[:len(w)-3]
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 4 && (strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "shes") || strings.HasSuffix(w, "xes")):
		return w[:len(w)-2]
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss"):
		return w[:len(w)-1]
	}
	return w
}

// shared counts the words of want also in got.
func shared(want, got []string) int {
	n := 0
	for _, w := range want {
		for _, g := range got {
			if w == g {
				n++
				break
			}
		}
	}
	return n
}

// ordinalDigits is the number of a date's day written with its ordinal
// suffix ("12th", "1st"), or "".
func ordinalDigits(w string) string {
	for _, suf := range []string{"st", "nd", "rd", "th"} {
		n, ok := strings.CutSuffix(w, suf)
		if ok && n != "" && strings.Trim(n, "0123456789") == "" {
			return n
		}
	}
	return ""
}

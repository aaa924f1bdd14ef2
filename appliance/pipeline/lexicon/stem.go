package lexicon

// Stem is the light stem of the lower-cased word w: it folds plurals and
// -ing/-ed/-ly inflections together ("budgets", "budgeting", "budgeted" →
// "budget"; "making", "makes", "make" → "mak"; "studies", "studied",
// "study" → "studi"; "quarterly" → "quarter"). It is deliberately tiny and
// never produces a dictionary form: the extractor only compares stems
// (titles use the most frequent surface form) and the embedder hashes them.
// Over-stemming a rare word merely merges two words.
func Stem(w string) string {
	return string(AppendStem(make([]byte, 0, len(w)), []byte(w)))
}

// AppendStem appends Stem(w) to dst without allocating.
func AppendStem(dst, w []byte) []byte {
	n := len(w)
	if !ascii(w) {
		// The suffix rules are English; other scripts only lose a plain
		// plural "-s" (Latin-script words such as "cafés").
		if n >= 4 && w[n-1] == 's' && !hasSuffix(w, "ss") && !hasSuffix(w, "us") && !hasSuffix(w, "is") {
			return append(dst, w[:n-1]...)
		}
		return append(dst, w...)
	}
	s := w
	switch {
	case n < 4:
	case hasSuffix(w, "ies") && n > 4:
		s = w[:n-2] // "studies" → "studi", as "study" becomes below
	case hasSuffix(w, "sses"):
		s = w[:n-2]
	case hasSuffix(w, "ches"), hasSuffix(w, "shes"), hasSuffix(w, "xes"), hasSuffix(w, "zes"):
		s = w[:n-2]
	case hasSuffix(w, "s") && !hasSuffix(w, "ss") && !hasSuffix(w, "us") && !hasSuffix(w, "is"):
		s = w[:n-1]
	case hasSuffix(w, "eed"):
		// "agreed" → "agree", but "need", "speed" stay whole.
		if n-1 > 4 {
			s = w[:n-1]
		}
	case hasSuffix(w, "ing"):
		if r := w[:n-3]; stemmable(r) {
			s = undouble(r)
		}
	case hasSuffix(w, "ed"):
		if r := w[:n-2]; stemmable(r) {
			s = undouble(r)
		}
	case hasSuffix(w, "ly") && n-2 >= 4 && !hasSuffix(w, "ily") && !hasSuffix(w, "ply") && !hasSuffix(w, "bly"):
		s = w[:n-2]
	}
	k := len(s)
	switch {
	case k >= 4 && s[k-1] == 'e' && s[k-2] != 'e':
		// A final silent "e" goes, so "make" meets "making" → "mak".
		return append(dst, s[:k-1]...)
	case k >= 3 && s[k-1] == 'y':
		// A final "y" becomes "i", so "study", "studies" and "studied"
		// meet at "studi".
		dst = append(dst, s[:k-1]...)
		return append(dst, 'i')
	}
	return append(dst, s...)
}

// stemmable reports whether r, a word with -ing or -ed removed, is still a
// plausible stem: three letters or more with a vowel, so "string", "bring"
// and "red" keep their endings.
func stemmable(r []byte) bool {
	if len(r) < 3 {
		return false
	}
	for _, c := range r {
		switch c {
		case 'a', 'e', 'i', 'o', 'u', 'y':
			return true
		}
	}
	return false
}

// undouble turns "plann" (from "planned") back into "plan".
func undouble(w []byte) []byte {
	n := len(w)
	if n >= 4 && w[n-1] == w[n-2] {
		switch w[n-1] {
		case 'a', 'e', 'i', 'o', 'u', 'l', 's', 'z':
		default:
			return w[:n-1]
		}
	}
	return w
}

func hasSuffix(w []byte, suf string) bool {
	return len(w) >= len(suf) && string(w[len(w)-len(suf):]) == suf
}

func ascii(w []byte) bool {
	for _, c := range w {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

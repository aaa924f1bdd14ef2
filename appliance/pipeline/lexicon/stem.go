package lexicon

// Stem is the light stem of the lower-cased word w: it folds plurals and
// -ing/-ed/-ly inflections together ("budgets", "budgeting", "budgeted" →
// "budget"; "making", "makes", "make" → "mak"; "studies", "studied",
// "study" → "studi"; "quarterly" → "quarter"). It is deliberately tiny and
// never produces a dictionary form: the extractor only compares stems
// (titles use the most frequent surface form) and the embedder hashes them.
// Over-stemming a rare word merely merges two words.
func Stem(w string) string {
	n, i := stemCut(w)
	if i {
		return w[:n] + "i"
	}
	return w[:n]
}

// AppendStem appends Stem(w) to dst without allocating.
func AppendStem(dst, w []byte) []byte {
	n, i := stemCut(w)
	dst = append(dst, w[:n]...)
	if i {
		dst = append(dst, 'i')
	}
	return dst
}

// stemCut is the stem of w as how many of its bytes to keep and whether an
// "i" follows them, so that neither Stem nor AppendStem copies the word.
func stemCut[T ~string | ~[]byte](w T) (keep int, i bool) {
	n := len(w)
	if !ascii(w) {
		// The suffix rules are English; other scripts only lose a plain
		// plural "-s" (Latin-script words such as "cafés").
		if n >= 4 && w[n-1] == 's' && !hasSuffix(w, "ss") && !hasSuffix(w, "us") && !hasSuffix(w, "is") {
			return n - 1, false
		}
		return n, false
	}
	k := n
	switch {
	case n < 4:
	case hasSuffix(w, "ies") && n > 4:
		k = n - 2 // "studies" → "studi", as "study" becomes below
	case hasSuffix(w, "sses"):
		k = n - 2
	case hasSuffix(w, "ches"), hasSuffix(w, "shes"), hasSuffix(w, "xes"), hasSuffix(w, "zes"):
		k = n - 2
	case hasSuffix(w, "s") && !hasSuffix(w, "ss") && !hasSuffix(w, "us") && !hasSuffix(w, "is"):
		k = n - 1
	case hasSuffix(w, "eed"):
		// "agreed" → "agree", but "need", "speed" stay whole.
		if n-1 > 4 {
			k = n - 1
		}
	case hasSuffix(w, "ing"):
		if stemmable(w[:n-3]) {
			k = undouble(w[:n-3])
		}
	case hasSuffix(w, "ed"):
		if stemmable(w[:n-2]) {
			k = undouble(w[:n-2])
		}
	case hasSuffix(w, "ly") && n-2 >= 4 && !hasSuffix(w, "ily") && !hasSuffix(w, "ply") && !hasSuffix(w, "bly"):
		k = n - 2
	}
	switch {
	case k >= 4 && w[k-1] == 'e' && w[k-2] != 'e':
		// A final silent "e" goes, so "make" meets "making" → "mak".
		return k - 1, false
	case k >= 3 && w[k-1] == 'y':
		// A final "y" becomes "i", so "study", "studies" and "studied"
		// meet at "studi".
		return k - 1, true
	}
	return k, false
}

// stemmable reports whether r, a word with -ing or -ed removed, is still a
// plausible stem: three letters or more with a vowel, so "string", "bring"
// and "red" keep their endings.
func stemmable[T ~string | ~[]byte](r T) bool {
	if len(r) < 3 {
		return false
	}
	for i := 0; i < len(r); i++ {
		switch r[i] {
		case 'a', 'e', 'i', 'o', 'u', 'y':
			return true
		}
	}
	return false
}

// undouble is the length of w without a doubled final consonant: "plann"
// (from "planned") keeps "plan".
func undouble[T ~string | ~[]byte](w T) int {
	n := len(w)
	if n >= 4 && w[n-1] == w[n-2] {
		switch w[n-1] {
		case 'a', 'e', 'i', 'o', 'u', 'l', 's', 'z':
		default:
			return n - 1
		}
	}
	return n
}

func hasSuffix[T ~string | ~[]byte](w T, suf string) bool {
	return len(w) >= len(suf) && string(w[len(w)-len(suf):]) == suf
}

func ascii[T ~string | ~[]byte](w T) bool {
	for i := 0; i < len(w); i++ {
		if w[i] >= 0x80 {
			return false
		}
	}
	return true
}

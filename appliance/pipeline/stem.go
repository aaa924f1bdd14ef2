package pipeline

import "strings"

// stem folds inflections of an English word together ("budgets",
// "budgeting", "budget") so keyword counts reflect topics, not spellings. It
// is a deliberately tiny suffix stripper: it only has to group words within
// one transcript, never to produce dictionary forms (titles use the most
// frequent surface form instead).
func stem(w string) string {
	n := len(w)
	if n < 4 {
		return w
	}
	switch {
	case strings.HasSuffix(w, "ies") && n > 4:
		return w[:n-3] + "y"
	case strings.HasSuffix(w, "sses"):
		return w[:n-2]
	case strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"), strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "zes"):
		return w[:n-2]
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		return w[:n-1]
	case strings.HasSuffix(w, "ing") && n-3 >= 4:
		return undouble(w[:n-3])
	case strings.HasSuffix(w, "ed") && n-2 >= 4:
		return undouble(w[:n-2])
	case strings.HasSuffix(w, "ly") && n-2 >= 5:
		return w[:n-2]
	}
	return w
}

// undouble turns "plann" (from "planned") back into "plan".
func undouble(w string) string {
	n := len(w)
	if n >= 4 && w[n-1] == w[n-2] && !strings.ContainsRune("aeioulsz", rune(w[n-1])) {
		return w[:n-1]
	}
	return w
}

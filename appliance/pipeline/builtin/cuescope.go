package builtin

// connectiveCueSubject: ws[k] is a connective that opens a new thought with
// its own time said first, then its subject ("I'll have the slides done |
// and then Friday I'll send the invites", "… | and on Friday we need to…"):
// the time belongs to the clause it opens, not to the one before.
func connectiveCueSubject(ws []cword, k int) bool {
	switch ws[k].lower {
	case "and", "then", "so":
	default:
		return false
	}
	if k == 0 {
		return false
	}
	j := k + 1
	for j < len(ws) && (ws[j].lower == "then" || ws[j].lower == "also") {
		j++
	}
	if w := wordAt(ws, j); w == "on" || w == "by" {
		j++
	}
	if j >= len(ws) || !startsCue(ws, j) {
		return false
	}
	for e := j + 1; e < len(ws) && e <= j+4; e++ {
		w, next := ws[e].lower, wordAt(ws, e+1)
		if !inSet(runOnOpeners, w) && !(inSet(runOnSubjects, w) && inSet(runOnVerbs, next)) {
			continue
		}
		return onlyCue(ws, j, e)
	}
	return false
}

// afterLeadingCue is where the words after a time said first end
// ("on Sunday evening | remind me to…"), s when the clause at ws[s:b] does
// not open with one.
func afterLeadingCue(ws []cword, s, b int) int {
	k := s
	if w := wordAt(ws, k); w == "on" || w == "by" {
		k++
	}
	if k >= b || !startsCue(ws, k) {
		return s
	}
	// the cue's words, read without marking them (no allocation: this runs
	// on every clause of the user's)
	sc := cueScanner{ws: ws[:min(b, k+4)], wd: -1}
	e := k
	for e < len(sc.ws) {
		n := sc.at(e)
		if n == 0 {
			break
		}
		e += n
	}
	if e == k {
		return s
	}
	return e
}

// joinedInstruction: the clause at ws[a:b], its first content word at s,
// is an instruction joined to what was said before by "so", "and" or
// "then" ("I'd like to see you in six weeks, so book a follow-up at the
// front desk"), with no condition on it in the rest of the sentence ("and
// call us if it swells").
func joinedInstruction(ws []cword, a, s int) bool {
	joined := false
	for k := a; k < s; k++ {
		switch ws[k].lower {
		case "so", "and", "then":
			joined = true
		}
	}
	if !joined {
		return false
	}
	for k := s; k < len(ws); k++ { // the condition may be a clause of its own
		switch ws[k].lower {
		case "if", "when", "unless", "whenever":
			return false
		case "in":
			if wordAt(ws, k+1) == "case" {
				return false
			}
		}
	}
	return true
}

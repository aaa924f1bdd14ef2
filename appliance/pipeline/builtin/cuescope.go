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

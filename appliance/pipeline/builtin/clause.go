package builtin

import "github.com/hearth-appliance/hearth/appliance/pipeline/lexicon"

// Clauses. A spoken sentence often strings several thoughts together ("I
// need to send the budget by end of day, so let's agree on the cuts now");
// tasks, plans and facts are read clause by clause so that one thought's
// words and time cues do not leak into the next.

// clauseStarters open a new clause wherever they appear.
var clauseStarters = lexicon.NewSet(`because cause 'cause cos otherwise although whereas which but`)

// boundBeforeSubject open a new clause when a subject pronoun follows them:
// "so we can test", "before he comes", "and I'll call you back".
var boundBeforeSubject = lexicon.NewSet(`and so or before after when while until once if unless since then`)

// subjectPronouns start a clause of their own.
var subjectPronouns = lexicon.NewSet(`i i'm i'll i've i'd we we're we'll we've we'd you you're you'll
	you've he he's he'll she she's she'll they they're they'll it it's it'll that's there's`)

// clauses splits ws into clauses, returned as [start, end) word ranges.
// runOn marks words from a segment with no punctuation at all (see runon.go).
func clauses(ws []cword, runOn bool) [][2]int {
	var out [][2]int
	start := 0
	for k := 0; k < len(ws); k++ {
		breaks := k > start && clauseBreakBefore(ws, k)
		if runOn && k > start && !breaks {
			breaks = runOnBreak(ws, start, k) && !onlyCue(ws, start, k)
		}
		if breaks {
			cut := k
			if d := frontedStart(ws, start, k); d >= 0 {
				// "the api docs | i'll update": the thing said first goes
				// with the deed
				cut = d
				if skipDiscourse(ws, start, d) == d {
					continue
				}
			}
			if runOn {
				cut = withConnectives(ws, start, cut)
			}
			out = append(out, [2]int{start, cut})
			start = cut
		}
		if p := ws[k].punct; p != 0 && p != ',' || p == ',' && !listContinues(ws, k+1) && frontedStart(ws, start, k+1) < 0 {
			out = append(out, [2]int{start, k + 1})
			start = k + 1
		}
	}
	if start < len(ws) {
		out = append(out, [2]int{start, len(ws)})
	}
	return out
}

// clauseBreakBefore: ws[k] opens a clause although no comma precedes it.
func clauseBreakBefore(ws []cword, k int) bool {
	w, c := ws[k].lower, ws[k].classes()
	if c&wcClauseStarter != 0 {
		return true
	}
	if c&wcBoundBeforeSubject != 0 && k+1 < len(ws) && ws[k+1].is(wcSubjectPronoun) {
		return true
	}
	if (w == "before" || w == "after") && wordAt(ws, k+1) == "that" && k+2 < len(ws) && ws[k+2].is(wcSubjectPronoun) &&
		k > 0 && ws[k-1].punct == 0 {
		// "the van is booked for eight in the morning | before that i need
		// to give notice": "that" is the plan just said, the subject opens
		// the next thought
		return true
	}
	if (w == "and" || w == "also" || w == "please") && hasSeq(ws, k+1, "remind", "me") {
		// "renew my passport and remind me to call mom": a second task
		return true
	}
	if coordinatedImperative(ws, k) || connectiveCueSubject(ws, k) {
		return true
	}
	if w == "and" && coordinatedDate(ws, k) {
		// "the dentist is tuesday at nine and parents evening is thursday
		// at six": two things, each with its own date
		return true
	}
	return w == "so" && wordAt(ws, k+1) == "that"
}

// coordinatedImperative: ws[k] opens the next of a run of commands ("replace
// the furnace filter clean the gutters and schedule the chimney sweep",
// "cancel the broadband, redirect the post"): a task verb with its object's
// determiner, in a sentence with another such command, itself after the
// end of a noun phrase, a comma or an "and" that it takes along.
func coordinatedImperative(ws []cword, k int) bool {
	v := k
	if ws[k].lower == "and" || ws[k].lower == "then" {
		v = k + 1
	}
	obj := v + 1
	if obj < len(ws) && ws[obj].is(wcKeepAtEnd) {
		obj++ // "pick up the dry cleaning", "fill up the car"
	}
	if obj >= len(ws) || k < 2 || !ws[v].is(wcTaskVerb) || !ws[obj].is(wcDeterminer) {
		return false
	}
	if v == k {
		prev := &ws[k-1]
		if prev.punct == 0 && (prev.is(wcStop|wcSubjectPronoun) || isFiller(prev.lower)) {
			return false // "I'll clean the", "to clean the", "and clean the" (broken before "and")
		}
	}
	for j := 0; j+1 < len(ws); j++ {
		o := j + 1
		if o+1 < len(ws) && ws[o].is(wcKeepAtEnd) {
			o++
		}
		if j != v && ws[j].is(wcTaskVerb) && ws[o].is(wcDeterminer) && (j == 0 || !ws[j-1].is(wcSubjectPronoun)) {
			return true
		}
	}
	return false
}

// listContinues: after a comma at k-1, the words that follow continue an
// enumeration ("oat milk, eggs and coffee filters") rather than start a new
// clause.
func listContinues(ws []cword, k int) bool {
	n := 0
	for j := k; j < len(ws); j++ {
		w := ws[j].lower
		if n == 0 && (inSet(subjectPronouns, w) || inSet(clauseStarters, w) || inSet(boundBeforeSubject, w)) {
			return false
		}
		n++
		if (w == "and" || w == "or") && n <= 3 && n > 1 {
			return true
		}
		if ws[j].punct != 0 {
			return ws[j].punct == ',' && n <= 3
		}
		if n > 3 {
			return false
		}
	}
	return false
}

// discourseWords open a clause without adding to it: "Okay, so, also…".
var discourseWords = lexicon.NewSet(`and also oh so okay ok alright well um uh uhm hmm then plus but just
	actually honestly anyway yeah yes yep sure right hey wait now look listen great cool perfect
	absolutely definitely totally fine no like`)

// skipDiscourse returns the first index in [a, b) that is not a discourse word.
func skipDiscourse(ws []cword, a, b int) int {
	for a < b && ws[a].is(wcDiscourse) {
		a++
	}
	return a
}

// coordinatedDate: the "and" at ws[k] joins a second dated statement, a
// short noun phrase then "is" or "are" and a time cue ("… and parents
// evening is thursday at six"), after a first one.
func coordinatedDate(ws []cword, k int) bool {
	for j := k + 2; j < len(ws) && j <= k+4; j++ {
		w := ws[j].lower
		if prev := &ws[j-1]; prev.is(wcSubjectPronoun) || prev.punct != 0 || prev.is(wcStop) && !prev.is(wcDeterminer) {
			return false
		}
		if (w == "is" || w == "are") && j+1 < len(ws) && startsCue(ws, j+1) {
			for m := k - 1; m >= 0; m-- {
				if v := ws[m].lower; v == "is" || v == "are" {
					return true
				}
			}
			return false
		}
	}
	return false
}

package builtin

import (
	"strings"

	"github.com/hearth-appliance/hearth/appliance/pipeline/lexicon"
)

// Fronted objects. Speech often names the thing first and the deed after:
// "the quarterly report, I have to finish by Wednesday", "the boxes i'll
// pick up from the store this week", "those I'll do by Friday". The
// commitment's verb then has no object of its own (or only "it", "them",
// "that"); the task is the deed done to the thing said first, written in
// the usual order ("Finish the quarterly report").

// frontDeterminers open a noun phrase said before the subject.
var frontDeterminers = lexicon.NewSet(`the my our your his her their this that these those`)

// frontPronouns stand alone for a thing named before ("those I'll do").
var frontPronouns = lexicon.NewSet(`that those these`)

// npInnerWords may sit inside a fronted noun phrase although they are stop
// words: "the birthday card for Leo", "the minutes of the meeting".
var npInnerWords = lexicon.NewSet(`for of from to the a an my our your his her their`)

// frontedPhrase is the noun phrase ws[s:e] said before the first-person
// subject at ws[e] of the commitment in clause ws[a:body]; ok is false when
// the clause opens with its subject or with anything but a noun phrase.
func frontedPhrase(ws []cword, a, body int) (s, e int, ok bool) {
	s = skipDiscourse(ws, a, body)
	e = taskOpener(ws, a, body)
	if e <= s || e-s > 6 || !inSet(frontDeterminers, ws[s].lower) && !bareThing(ws, s, e) {
		return 0, 0, false
	}
	if subj, _ := expandSubject(ws[e].lower); subj == "" {
		return 0, 0, false
	}
	if e-s == 1 && inSet(frontDeterminers, ws[s].lower) {
		return s, e, inSet(frontPronouns, ws[s].lower)
	}
	for k := s; k < e; k++ {
		w := ws[k]
		if k == s && inSet(frontDeterminers, w.lower) {
			continue
		}
		if w.punct != 0 && (k != e-1 || w.punct != ',') {
			return 0, 0, false
		}
		if inSet(subjectPronouns, w.lower) || inSet(stopWords, w.lower) && !inSet(npInnerWords, w.lower) || isFiller(w.lower) {
			return 0, 0, false
		}
	}
	return s, e, true
}

// objectMissing: the verb at ws[v] has no object of its own: the clause
// ends, a pronoun stands for the thing, or a time or a place follows
// ("i'll update this afternoon", "I'll pull them by Thursday", "I'll
// circulate a week before").
func objectMissing(ws []cword, v, b int, used []bool) (next int, missing bool) {
	n := v + 1
	if n < b && ws[n].is(wcKeepAtEnd) && !used[n] {
		n++ // "pick up", "write up"
	}
	switch {
	case n >= b || used[n]:
		return n, true
	case ws[n].lower == "it" || ws[n].lower == "them" || inSet(frontPronouns, ws[n].lower) && (n+1 >= b || used[n+1] || ws[n+1].is(wcStop)):
		return n + 1, true
	case ws[n].lower == "a" && n+1 < b && unitOf(ws[n+1].lower+"s") != 0:
		return n, true
	case ws[n].is(wcDeterminer):
		return n, false
	}
	return n, ws[n].is(wcStop) && !ws[n].is(wcSubjectPronoun)
}

// frontedTask rewrites the commitment whose body starts at ws[body] in
// clause ws[a:b] of utterance i as the deed done to the thing said before
// its subject; ok is false when there is no such thing or the verb has an
// object of its own.
func (dl *dialogue) frontedTask(i int, ws []cword, a, body, b int, used []bool, byUser bool, owner string) (desc string, topic []string, ok bool) {
	s, e, found := frontedPhrase(ws, a, body)
	if !found {
		return "", nil, false
	}
	v := firstBodyWord(ws, body, b, used)
	delivered := v < b && ws[v].lower == "have" && deliveredBy(ws, v+1, b)
	if v >= b || !delivered && !ws[v].is(wcTaskVerb) && inSet(stativeVerbs, ws[v].lower) {
		return "", nil, false
	}
	rest, missing := objectMissing(ws, v, b, used)
	if !missing {
		return "", nil, false
	}
	var np []cword
	if e-s == 1 && inSet(frontPronouns, ws[s].lower) {
		// "those I'll do by Friday": the thing named just before
		ref := dl.definiteReferent(i, s, ws[s].lower != "that")
		if ref == "" {
			return "", nil, false
		}
		np = append(np, cword{text: "the", lower: "the"})
		for _, w := range strings.Fields(ref) {
			np = append(np, cword{text: w, lower: strings.ToLower(w)})
		}
	} else {
		np = append(np, ws[s:e]...)
		np[len(np)-1].punct = 0
		if !np[0].cap || inSet(frontDeterminers, np[0].lower) || !isProperLike(np[0]) {
			np[0].text = np[0].lower // "The dry cleaning, I have to pick up" → "Pick up the dry cleaning"
		}
		if inSet(frontPronouns, np[0].lower) || np[0].lower == "this" {
			np[0] = cword{text: "the", lower: "the"}
		}
	}
	// the verb (and its particle), the thing, then whatever followed
	var nws []cword
	var nused []bool
	for k := v; k < rest && k < b; k++ {
		if ws[k].lower == "it" || ws[k].lower == "them" || inSet(frontPronouns, ws[k].lower) {
			continue
		}
		w := ws[k]
		if k == v && delivered {
			// "the headcount plan I'll have by the end of the month": to have
			// a piece of work by a day is to finish it
			w = cword{text: "finish", lower: "finish"}
		}
		nws = append(nws, w)
		nused = append(nused, used[k])
	}
	for _, w := range np {
		nws = append(nws, w)
		nused = append(nused, false)
	}
	for k := rest; k < b; k++ {
		nws = append(nws, ws[k])
		nused = append(nused, used[k])
	}
	d, t, vague := describe(nws, 0, len(nws), nused, byUser, owner)
	if d == "" || vague {
		return "", nil, false
	}
	return d, t, true
}

// deliveredBy: "have" at ws[from-1] is followed by a deadline ("by Friday",
// "ready by", "done before the meeting").
func deliveredBy(ws []cword, from, b int) bool {
	for k := from; k < b && k <= from+1; k++ {
		switch ws[k].lower {
		case "by", "before":
			return true
		case "ready", "done", "finished":
			continue
		}
		return false
	}
	return false
}

// frontedStart is where a noun phrase said before the first-person subject
// at ws[k] starts ("… and the release notes | i'll write by thursday"), -1
// when the words before k (back to from) end in none. The clause rules keep
// such a phrase with its subject.
func frontedStart(ws []cword, from, k int) int {
	if k >= len(ws) {
		return -1
	}
	if subj, _ := expandSubject(ws[k].lower); subj == "" {
		return -1
	}
	for d := k - 1; d >= from && d >= k-6; d-- {
		w := ws[d]
		if w.punct != 0 && (d != k-1 || w.punct != ',') {
			return -1
		}
		if inSet(frontDeterminers, w.lower) && (d < k-1 || inSet(frontPronouns, w.lower)) {
			if d > from && !inSet(connectives, ws[d-1].lower) && ws[d-1].punct == 0 {
				return -1 // "I finished the report I'll…": the phrase is an object
			}
			return d
		}
		if inSet(subjectPronouns, w.lower) || inSet(stopWords, w.lower) && !inSet(npInnerWords, w.lower) || isFiller(w.lower) {
			return -1
		}
	}
	return -1
}

// bareThing: ws[s:e] is a short noun phrase without a determiner
// ("groceries I'll get tomorrow"): content words only, no time, no adverb.
func bareThing(ws []cword, s, e int) bool {
	if e-s > 3 {
		return false
	}
	for k := s; k < e; k++ {
		w := ws[k].lower
		if inSet(stopWords, w) || inSet(interAdverbs, w) || inSet(discourseWords, w) || isFiller(w) ||
			strings.HasSuffix(w, "ly") || weekdayOf(w) >= 0 || inSet(cueStarts, w) || dayPartHour(w) > 0 ||
			inSet(lightWords, w) || numberWord(w) || isDigits(w) {
			return false
		}
	}
	return true
}

// isProperLike: a capitalised word that is not a sentence's first common
// word; without more to go on, only "I" and names said in capitals mid-
// sentence count, so the first word of a fronted phrase is lowercased.
func isProperLike(w cword) bool { return w.text == "I" }

package punctuate

import (
	"strings"

	"github.com/hearth-appliance/hearth/appliance/stt"
)

// A sentence is a question when it opens like one. The rules look at the
// first two to five words only:
//   - discourse words before the opening are skipped ("so can you…",
//     "okay what time…", "please could you…");
//   - a wh-word alone or with one word ("why", "what now"), a
//     wh-contraction ("what's", "how's"), "how about", "what about", "why
//     not" and "how come" ask;
//   - a wh-word asks when an auxiliary follows it within four words ("what
//     time does the train leave", "how many people are coming"), and "who"
//     asks before any verb ("who wants coffee"), but not when a subject or a
//     determiner comes first: "when I get home I'll call", "where the car
//     is", "what a day" are statements;
//   - "how" asks before a measure ("how long", "how many");
//   - a modal, a form of "be", "does", "did", "has" or "had" first asks
//     when a subject or a determiner follows ("can you", "is it", "does the
//     train"), though not "a" after the last four ("was a good day", "had a
//     great time"); "do", "don't" and "have" only before a subject pronoun,
//     since "do the dishes", "don't worry" and "have a good day" are
//     imperatives; "could be" and "can't wait" are statements.

// lead words are skipped before the opening.
var lead = set(`so and but okay ok well hey oh um uh er erm alright also then anyway now please yeah`)

var wh = set(`what why how who whom whose where when which`)

var whContraction = set(`what's why's how's who's where's when's which's`)

var be = set(`is are was were am isn't aren't wasn't weren't`)

var modal = set(`can could would will should shall may might must can't couldn't wouldn't won't shouldn't mustn't`)

// doImperative and haveImperative open questions only before a pronoun.
var doImperative = set(`do don't have haven't`)

var doPast = set(`does did doesn't didn't has had hasn't hadn't`)

var subject = set(`i you we they he she it there anyone anybody someone somebody everyone everybody
	anything something everything nobody`)

// clauseSubject are subjects, contracted or not, that make a wh-word open a
// subordinate clause ("when I'm back").
var clauseSubject = set(`i you we they he she it i'm you're we're they're he's she's it's there's
	i'll you'll we'll they'll he'll she'll it'll i've you've we've they've i'd you'd we'd they'd`)

var determiner = set(`the a an my your his her our their its this that these those some any`)

var measure = set(`much many long far often old soon big late early`)

// question reports whether the sentence s (lowercase words) opens like a question.
func question(s []stt.Word) bool {
	i := 0
	for i < len(s)-1 && has(lead, norm(s[i].Text)) {
		i++
	}
	w := norm(s[i].Text)
	next := ""
	if i+1 < len(s) {
		next = norm(s[i+1].Text)
	}
	switch {
	case has(whContraction, w):
		return true
	case has(wh, w):
		return whQuestion(s, i, w, next)
	case has(modal, w):
		return has(subject, next) || has(determiner, next)
	case has(doImperative, w):
		return has(subject, next)
	case has(be, w), has(doPast, w):
		return has(subject, next) || has(determiner, next) && next != "a" && next != "an"
	}
	return false
}

func whQuestion(s []stt.Word, i int, w, next string) bool {
	switch {
	case i+2 >= len(s) && !has(clauseSubject, next):
		return true // "why?", "what now?", "where exactly?"
	case w == "how" && (next == "about" || next == "come" || has(measure, next)),
		w == "what" && next == "about", w == "why" && next == "not":
		return true
	case has(clauseSubject, next) || has(determiner, next):
		return false
	case w == "who" || w == "whom":
		return true
	}
	for j := i + 1; j < len(s) && j <= i+4; j++ {
		x := norm(s[j].Text)
		switch {
		case isAux(x):
			return true
		case has(clauseSubject, x), has(determiner, x), x == "to":
			return false
		}
	}
	return false
}

func isAux(w string) bool {
	return has(be, w) || has(modal, w) || has(doImperative, w) || has(doPast, w)
}

func set(list string) map[string]struct{} {
	words := strings.Fields(list)
	m := make(map[string]struct{}, len(words)) // at its final size: no rehashing as the program starts
	for _, w := range words {
		m[w] = struct{}{}
	}
	return m
}

func has(m map[string]struct{}, w string) bool {
	_, ok := m[w]
	return ok
}

// norm folds the typographic apostrophe, which some routes emit, to ASCII.
func norm(w string) string {
	if strings.Contains(w, "’") {
		return strings.ReplaceAll(w, "’", "'")
	}
	return w
}

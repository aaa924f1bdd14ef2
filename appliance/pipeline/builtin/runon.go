package builtin

import (
	"time"

	"github.com/hearth-appliance/hearth/appliance/pipeline/lexicon"
)

// Run-on speech. A local recognizer writes no punctuation, so a segment (a
// stretch of speech between pauses) can hold several sentences as one run
// of lowercase words: "thanks for joining the call this morning can you
// send them the budget report by friday at two please remind the team".
// In such a segment a clause also starts where a new thought plainly opens:
//   - a request: "can you", "could you", "would you", "will you";
//   - "please" before a verb ("please remind the team"), but not after
//     "can you" or "yes", nor before a cue ("please by Friday");
//   - a subject with a commitment or statement verb: "I'll", "we're",
//     "let's", "it's", "I need", "we should", "you have to"…;
//   - after a time cue, a subject pronoun ("booking the flights tonight |
//     we fly out on the third"), or a subject with a copula or a modal,
//     also negated:
//     "by wednesday | our procurement meeting is thursday", "next thursday
//     at 3 | so the deck should be final", "monday at ten thirty | their
//     cfo can't make friday", or a thing and then its doer ("today | the
//     report number i'll get from the station");
// unless the word before ties it to what precedes ("I think we should",
// "what can you do", "any chance you could"), or the clause so far is only
// a time cue ("tomorrow we need to…"). Connectives just before the new
// clause ("and then", "also", "so", "okay") go with it. A pause is a
// segment boundary, and sentences never span segments.

// runOnOpeners start a clause by themselves.
var runOnOpeners = lexicon.NewSet(`i'll i'm i've i'd we'll we're we've we'd let's you'll you're you've
	it's that's there's they're they'll he's she's he'll she'll`)

// runOnSubjects start a clause when a runOnVerb follows them.
var runOnSubjects = lexicon.NewSet(`i we you`)

var runOnVerbs = lexicon.NewSet(`will need have should must can could want would am was were just also
	really think know guess got gotta gonna wanna hope might may shall`)

var requestModals = lexicon.NewSet(`can could would will`)

// tiedBefore ties the next words to the clause they follow: question words,
// conjunctions that the clause rules already handle, verbs that take a
// clause, auxiliaries and a few prepositions.
var tiedBefore = lexicon.NewSet(`what why how who whom whose where when which that if whether because cause
	since so than as though although unless until till once while before after and or but nor then
	think thought know knew guess hope bet mean said say says told tell believe wish suppose sure
	figure realize realise heard hear feel felt reckon means thinks thinking knowing guessing
	much many long far often old soon about of for like to chance way
	can could will would should shall may might must do does did is are was were am have has had
	don't didn't doesn't can't won't wouldn't couldn't shouldn't isn't aren't wasn't weren't`)

// pleaseTied: "please" after these is part of the same request or reply.
var pleaseTied = lexicon.NewSet(`you u can could would will yes yeah yep sure ok okay oh`)

// connectives go with the clause that follows them.
var connectives = lexicon.NewSet(`and also so then but okay ok oh well plus anyway alright now um uh`)

// runOnBreak: ws[k] opens a clause in run-on speech whose current clause
// starts at from.
func runOnBreak(ws []cword, from, k int) bool {
	w, next := ws[k].lower, wordAt(ws, k+1)
	j := k - 1
	for j >= from && inSet(connectives, ws[j].lower) {
		j-- // "… fine so could you": what ties is the word before "so"
	}
	if j < from {
		return false // the clause already opens here
	}
	prev := ws[j].lower
	switch {
	case inSet(requestModals, w):
		return (next == "you" || next == "u") && !inSet(tiedBefore, prev) && !inSet(subjectPronouns, prev)
	case w == "please":
		return next != "" && !inSet(stopWords, next) && !inSet(cueStarts, next) && !inSet(pleaseTied, prev)
	case inSet(runOnOpeners, w) && inSet(strandedModals, prev) && j > from && inSet(runOnSubjects, ws[j-1].lower):
		// "i can | let's say wednesday": a modal left bare is an answer
		return true
	case inSet(runOnOpeners, w), inSet(runOnSubjects, w) && inSet(runOnVerbs, next):
		return !inSet(tiedBefore, prev)
	case w == "it" && inSet(itVerbs, next) && !inSet(tiedBefore, prev) && !inSet(stopWords, prev):
		// "i need to renew my passport | it expires in march"
		return true
	case weekdayOf(w) >= 0 && inSet(copulas, next) && !inSet(tiedBefore, prev) && !inSet(absorbable, prev) &&
		!inSet(weekModifiers, prev):
		// "i can do monday and wednesday | tuesday is football": a day said
		// as the subject of its own statement
		return true
	case inSet(cueSubjects, w) && cueEndsAt(ws, j) && next != "" && !inSet(tiedBefore, next):
		// "booking the flights tonight | we fly out on the third"
		return true
	case cueEndsAt(ws, j) && k+1 < len(ws) && !inSet(tiedBefore, prev) && (isImperative(ws, k, len(ws)) ||
		inSet(plainImperatives, w) && !inSet(nounFollowers, next) && !inSet(questionAux, next)):
		// "you can go home today | keep the dressing dry"
		return true
	case inSet(subjectDeterminers, w) && (cueEndsAt(ws, j) || isDigits(prev) || hourWords[prev] > 0 || numberWord(prev)):
		for m := k + 2; m < len(ws) && m <= k+4; m++ {
			if v := ws[m].lower; inSet(copulas, v) || inSet(requestModals, v) || v == "should" || inSet(negatedModals, v) ||
				inSet(frontedDoers, v) && !ws[m-1].is(wcStop) || inSet(reportingVerbs, v) && m > k+2 {
				return true
			}
		}
	}
	return false
}

// plainImperatives are instructions that are no task of their own ("keep
// the dressing dry", "come back on monday").
var plainImperatives = lexicon.NewSet(`keep come go stay remember avoid use`)

// weekModifiers name which week a weekday is in: "next tuesday is".
var weekModifiers = lexicon.NewSet(`next last this coming every each`)

// strandedModals end an answer when said bare after a subject: "I can.",
// "we could", "you should".
var strandedModals = lexicon.NewSet(`can could will would should might must do did`)

// cueEndsAt: a time cue ends at ws[j]: a day part or a relative day
// ("tonight", "this morning"), a weekday, a month ("the ninth and tenth of
// december"; not "may", a modal as often) or a day's ordinal ("on the
// twelfth").
func cueEndsAt(ws []cword, j int) bool {
	w := ws[j].lower
	if inSet(cueEnds, w) || weekdayOf(w) >= 0 || ordinalEnds(ws, j+1) {
		return true
	}
	_, month := months[w]
	return month && w != "may"
}

var subjectDeterminers = lexicon.NewSet(`the our my your their his her`)

var copulas = lexicon.NewSet(`is are was were 's`)

// itVerbs after "it" open a new statement about the thing just named.
var itVerbs = lexicon.NewSet(`expires runs needs starts ends closes opens costs says goes comes takes happens
	finishes leaves arrives works breaks expired ran needed started ended closed opened cost said went came took
	happened finished left arrived worked broke`)

// frontedDoers after a thing just named make it the object said first:
// "i'll email the photos today | the report number i'll get tomorrow".
var frontedDoers = lexicon.NewSet(`i'll we'll i'm i`)

// cueSubjects open a clause right after a time cue ends one.
var cueSubjects = lexicon.NewSet(`i we he she they`)

// negatedModals also open a clause after a time cue: "monday at ten thirty |
// their cfo can't make friday".
var negatedModals = lexicon.NewSet(`can't cannot won't couldn't wouldn't isn't aren't doesn't don't didn't`)

// cueEnds are words a time cue ends with.
var cueEnds = lexicon.NewSet(`today tonight tomorrow morning afternoon evening night week weekend month
	noon midnight am pm o'clock`)

// onlyCue: ws[from:k] holds nothing but discourse words and a time cue.
func onlyCue(ws []cword, from, k int) bool {
	s := skipDiscourse(ws, from, k)
	if s == k {
		return false
	}
	used := make([]bool, len(ws))
	scanCues(ws, s, k, time.Time{}, used)
	for j := s; j < k; j++ {
		if !used[j] {
			return false
		}
	}
	return true
}

// withConnectives moves a clause break at k (> from) back over the
// connectives before it ("…the report | and then I'll…"), but not to from.
// A time word after a preposition ("by then", "until now") is not one.
func withConnectives(ws []cword, from, k int) int {
	for k-1 > from && inSet(connectives, ws[k-1].lower) {
		if w := ws[k-1].lower; (w == "then" || w == "now") && inSet(thenPrepositions, ws[k-2].lower) {
			break
		}
		k--
	}
	return k
}

var thenPrepositions = lexicon.NewSet(`by before until till since from after`)

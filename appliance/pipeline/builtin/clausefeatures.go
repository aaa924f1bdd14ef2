package builtin

import (
	"hash/fnv"
	"time"

	"github.com/hearth-appliance/hearth/appliance/pipeline/lexicon"
)

// Features of a clause for the learned clause classifier (clausemodel.go).
// They are general on purpose, none of them a phrase of the corpus it was
// trained on: the clause's word stems, its first words (subject and modal
// structure), who its subject is, whether it holds a modal or an intention
// verb, negation, a question, past-tense markers, what kind of time the
// time grammar reads in it, and where it stands (the user's turn or not,
// first or later clause, early or late in the conversation). Each feature is
// a string hashed into one of 1<<featureBits weights.
const featureBits = 13

var (
	cfModal  = lexicon.NewSet(`will 'll shall going gonna need needa have has got gotta must should can could want wanna would like plan planning supposed meant promised try`)
	cfNeg    = lexicon.NewSet(`not no never don't doesn't didn't won't can't cannot isn't aren't wasn't weren't shouldn't wouldn't couldn't haven't hasn't`)
	cfPast   = lexicon.NewSet(`was were did had went came said told got made took saw yesterday ago last`)
	cfFirst  = lexicon.NewSet(`i i'll i'm i've i'd we we'll we're we've we'd let's me my our`)
	cfSecond = lexicon.NewSet(`you you'll you're you've you'd your`)
	cfThird  = lexicon.NewSet(`he he'll he's she she'll she's they they'll they're it it'll it's`)
)

// clauseFeatures appends to dst the feature indices of clause ws[a:b] of
// utterance u, the ci-th of its clauses, at position pos of n utterances.
func clauseFeatures(dst []uint32, u *utterance, a, b, ci, pos, n int, ref time.Time, single bool) []uint32 {
	ws := u.words
	add := func(parts ...string) {
		h := fnv.New32a()
		for _, p := range parts {
			h.Write([]byte(p))
			h.Write([]byte{0})
		}
		dst = append(dst, h.Sum32()&(1<<featureBits-1))
	}
	add("bias")
	var modal, neg, past, q bool
	for k := a; k < b; k++ {
		w := ws[k].lower
		add("w", lexicon.Stem(w))
		modal = modal || inSet(cfModal, w)
		neg = neg || inSet(cfNeg, w)
		past = past || inSet(cfPast, w)
	}
	for k := a; k < b && k < a+3; k++ {
		add("first", ws[k].lower)
		if k+1 < b {
			add("bi", ws[k].lower, ws[k+1].lower)
		}
	}
	subj := "none"
	if a < b {
		switch w := ws[a].lower; {
		case inSet(cfFirst, w):
			subj = "1"
		case inSet(cfSecond, w):
			subj = "2"
		case inSet(cfThird, w):
			subj = "3"
		case ws[a].cap && a > 0:
			subj = "name"
		case inSet(questionAux, w):
			q = true
		}
	}
	add("subj", subj)
	if modal {
		add("modal")
		add("modal", subj)
	}
	if neg {
		add("neg")
	}
	if past {
		add("past")
	}
	if q || u.question {
		add("question")
	}
	// who does what: the structure the rules read, as evidence to weigh
	// rather than gates (a commitment and its deed; an imperative; what
	// undoes a commitment: a condition, a supposition, reported advice, a
	// negated or regretted deed, a habit, only waiting for something)
	timed := !ref.IsZero() && scanCues(ws, a, b, ref, nil).found
	if body, ok := commitment(ws, a, b, timed); ok && body < b {
		add("commit")
		add("deed", lexicon.Stem(ws[body].lower))
		if ws[body].is(wcTaskVerb) {
			add("commit-taskverb")
		}
		if reportedBefore(ws, a, body) {
			add("reported")
		}
		if negated(ws, body, b) {
			add("negated")
		}
		if watchOnly(ws, body) || habitChange(ws, body) {
			add("watch-or-habit")
		}
	}
	if s := skipDiscourse(ws, a, b); s < b && isImperative(ws, s, b) {
		add("imperative")
	}
	if a < b && (hasSeq(ws, a, "can", "you") || hasSeq(ws, a, "could", "you") || hasSeq(ws, a, "would", "you") ||
		hasSeq(ws, a, "don't", "forget") || hasSeq(ws, a, "remember", "to") || hasSeq(ws, a, "remind", "me")) {
		add("request")
	}
	if conditionBefore(ws, a) {
		add("condition")
	}
	if hypotheticalBefore(ws, a, b) {
		add("hypothetical")
	}
	if habitual(ws, a, b) {
		add("habitual")
	}
	if !ref.IsZero() {
		c := scanCues(ws, a, b, ref, nil)
		if c.found {
			add("time")
			add("time", subj)
		}
		for _, f := range []struct {
			on   bool
			name string
		}{{c.date, "date"}, {c.fromWeekday, "weekday"}, {c.clock, "clock"}, {c.part > 0, "part"}, {c.rel, "rel"},
			{c.past, "tpast"}, {c.recurring, "recurring"}, {c.deadline, "deadline"}, {c.dayBefore, "before"}} {
			if f.on {
				add("t", f.name)
			}
		}
	}
	if u.isUser {
		add("user")
		add("user", subj)
	}
	if single {
		add("single")
	}
	add("ci", itoaSmall(min(ci, 3)))
	add("len", itoaSmall(min((b-a)/4, 6)))
	if n > 0 {
		add("pos", itoaSmall(pos*4/n))
	}
	return dst
}

func itoaSmall(i int) string { return string(rune('0' + i)) }

package builtin

import (
	"time"

	"github.com/hearth-appliance/hearth/appliance/pipeline/lexicon"
)

// Dues said once for more than one task, or said apart from the task. The
// convention (the evaluation corpus's, see the package doc) is that a time
// belongs to the words it scopes, not only to the clause it sits in:
//   - a time said first in a sentence, before its subject ("On Friday I need
//     to call the bank and pick up the dry cleaning", "This week I have to
//     call the bank, buy stamps and renew the car tax") is the due of every
//     task of that sentence that says no time of its own;
//   - a time said last after tasks joined under one subject and modal ("I
//     need to call the bank and pick up the dry cleaning by Friday") is the
//     due of each of them;
//   - an answer that is only a yes and a time ("Sure, by Thursday.",
//     "Tomorrow, yes.") to a request just made is that request's due.

// A clause opening with "before" and a subject after the task says its
// deadline ("call the council before they close at five": 17:00; "renew
// the permit before it expires on the 31st": the day before, as "before
// the 31st" is).

// shareDues applies the conventions above to tasks, in place.
func (dl *dialogue) shareDues(tasks []task, tm timing) {
	if !tm.known() {
		return
	}
	for k := range tasks {
		i := tasks[k].utt
		if tasks[k].due != nil || i < 0 || i >= len(dl.utts) {
			continue
		}
		if d := dl.frontedSentenceDue(i, tm); d != nil {
			tasks[k].due = d
			continue
		}
		if d := dl.trailingSharedDue(tasks, k); d != nil {
			tasks[k].due = d
			continue
		}
		if d := dl.beforeClauseDue(tasks[k], tm); d != nil {
			tasks[k].due = d
			continue
		}
		if d := dl.followingBareTime(tasks, k, tm); d != nil {
			tasks[k].due = d
		}
	}
}

// followUpWindow is how many utterances after a task a time said alone
// may still be its due.
const followUpWindow = 3

// followingBareTime is the time said alone in the few utterances after
// task k, by either speaker, before the talk moves on: "I'll send you the
// report." "Great, by Friday?" "Yes."; "Can you pick up the kids?" "What
// time?" "At five fifteen."; nil when another task or a sentence with a
// time of its own comes first.
func (dl *dialogue) followingBareTime(tasks []task, k int, tm timing) *time.Time {
	i := tasks[k].utt
	var due *time.Time
	for j := i + 1; j < len(dl.utts) && j <= i+followUpWindow; j++ {
		for _, o := range tasks {
			if o.utt == j {
				return due
			}
		}
		if d := dl.bareTimeAnswer(j, tm); d != nil {
			due = d
			continue
		}
		if due != nil || scanCues(dl.utts[j].words, 0, len(dl.utts[j].words), tm.ref, nil).found {
			return due
		}
	}
	return due
}

// frontedSentenceDue is the time that opens utterance i before its subject,
// nil when it opens with none or names a time already past.
func (dl *dialogue) frontedSentenceDue(i int, tm timing) *time.Time {
	u := &dl.utts[i]
	if len(u.clauses) == 0 {
		return nil
	}
	ws := u.words
	a, b := u.clauses[0][0], u.clauses[0][1]
	s := skipDiscourse(ws, a, b)
	if s >= b || !startsCue(ws, s) && wordAt(ws, s) != "on" && wordAt(ws, s) != "by" {
		return nil
	}
	if !fronted(ws, s, b) && !(len(u.clauses) > 1 && onlyCue(ws, s, b)) && !frontedFirst(ws, s, b) {
		// neither "tomorrow i need to…" nor "so tomorrow, | first i'll…"
		return nil
	}
	c := scanCues(ws, s, b, tm.ref, nil)
	if c.past || c.recurring {
		return nil
	}
	d, _ := tm.due(ws, s, nextCueEnd(ws, s, b, tm.ref), nil)
	return d
}

// trailingSharedDue is the due of the next task of the same utterance when
// task k and it are deeds joined under one subject ("I need to call the bank
// and pick up the dry cleaning by Friday"): the next task's clause opens
// with "and" and a verb, and its time ends the sentence.
func (dl *dialogue) trailingSharedDue(tasks []task, k int) *time.Time {
	if k+1 >= len(tasks) || tasks[k+1].utt != tasks[k].utt || tasks[k+1].due == nil {
		return nil
	}
	u := &dl.utts[tasks[k].utt]
	if len(u.tasks) != 2 || len(u.clauses) < 2 {
		return nil
	}
	ws := u.words
	second := u.tasks[1]
	if wordAt(ws, second) != "and" {
		return nil
	}
	v := second + 1
	if wordAt(ws, v) == "then" || wordAt(ws, v) == "also" {
		v++
	}
	if v >= len(ws) || !ws[v].is(wcTaskVerb) {
		return nil
	}
	// the time ends the sentence: nothing but the cue after the deed
	used := make([]bool, len(ws))
	c := scanCues(ws, v, len(ws), time.Time{}, used)
	if !c.found || !used[len(ws)-1] {
		return nil
	}
	for j := u.tasks[0]; j < second; j++ {
		if used[j] {
			return nil
		}
	}
	return tasks[k+1].due
}

// answerFillers may stand beside a time in an answer that is only a time:
// "sure, by thursday", "tomorrow, yes", "yeah I can do Friday".
var answerFillers = lexicon.NewSet(`yes yeah yep yup sure okay ok fine no problem absolutely definitely of course will do
	i can i'll that's that works for me by before on at latest the um uh so well alright right great ideally
	hopefully please then maybe`)

// bareTimeAnswer is the time of utterance i when it says nothing but a time
// and a yes (or asks only that: "by Friday?"), nil otherwise.
func (dl *dialogue) bareTimeAnswer(i int, tm timing) *time.Time {
	u := &dl.utts[i]
	ws := u.words
	if len(ws) == 0 || len(ws) > 8 {
		return nil
	}
	used := make([]bool, len(ws))
	c := scanCues(ws, 0, len(ws), tm.ref, used)
	if !c.found || c.past || c.recurring {
		return nil
	}
	for j, w := range ws {
		if !used[j] && !inSet(answerFillers, w.lower) {
			return nil
		}
	}
	d, _ := tm.due(ws, 0, len(ws), nil)
	return d
}

// mustBeDoneBy: the clause says that what was just said must be done by a
// time, its subject a pronoun ("It has to be done by the end of the
// month.", "that needs to be in by Friday"): the deadline of the task said
// before it.
func mustBeDoneBy(ws []cword, a, b int) bool {
	s := skipDiscourse(ws, a, b)
	switch wordAt(ws, s) {
	case "it", "that", "this", "which":
	default:
		return false
	}
	k := s + 1
	switch {
	case hasSeq(ws, k, "has", "to", "be"), hasSeq(ws, k, "needs", "to", "be"), hasSeq(ws, k, "'s", "got", "to", "be"):
		return true
	case hasSeq(ws, k, "must", "be"), hasSeq(ws, k, "should", "be"):
		return true
	}
	return false
}

// needItBy: the clause says when the thing just asked for is needed ("We
// need it back by the end of the week.", "I need them by Friday"): the
// deadline of the task said before it.
func needItBy(ws []cword, a, b int) bool {
	s := skipDiscourse(ws, a, b)
	switch wordAt(ws, s) {
	case "i", "we", "they":
	default:
		return false
	}
	k := s + 1
	if w := wordAt(ws, k); w != "need" && w != "needs" {
		return false
	}
	switch wordAt(ws, k+1) {
	case "it", "them", "that", "those", "this":
	default:
		return false
	}
	k += 2
	if w := wordAt(ws, k); w == "back" || w == "done" || w == "signed" || w == "returned" || w == "in" {
		k++
	}
	w := wordAt(ws, k)
	return w == "by" || w == "before" || w == "for" || w == "on" || startsCue(ws, min(k, len(ws)-1)) && k < b
}

// frontedFirst: the clause at ws[s:b] opens with its time cue, then an
// ordering word and a subject ("tomorrow first i'll drop the car off").
func frontedFirst(ws []cword, s, b int) bool {
	used := make([]bool, len(ws))
	scanCues(ws, s, min(b, s+4), time.Time{}, used)
	k := s
	for k < b && used[k] {
		k++
	}
	if k == s || k >= b || ws[k].lower != "first" {
		return false
	}
	// the subject may open the next clause: "so tomorrow first | i'll…"
	return k+1 < len(ws) && (inSet(firstPerson, ws[k+1].lower) || inSet(runOnOpeners, ws[k+1].lower))
}

// beforeClauseDue is the deadline said by a "before" clause right after
// task t's ("… before they close at five"), nil when there is none.
func (dl *dialogue) beforeClauseDue(t task, tm timing) *time.Time {
	u := &dl.utts[t.utt]
	ci := dl.taskClause(t)
	if ci+1 >= len(u.clauses) {
		return nil
	}
	ws := u.words
	a, b := u.clauses[ci+1][0], u.clauses[ci+1][1]
	if wordAt(ws, a) != "before" || a+1 >= b || !ws[a+1].is(wcSubjectPronoun) {
		return nil
	}
	c := scanCues(ws, a+1, b, tm.ref, nil)
	if !c.found || c.past || c.recurring {
		return nil
	}
	d, _ := tm.due(ws, a+1, b, nil)
	if d != nil && c.date && !c.clock {
		d = dayBeforeThen(*d, tm.loc)
	}
	return d
}

// taskClause is the clause of t's utterance its deed was read from: the
// one holding its verb, else the first.
func (dl *dialogue) taskClause(t task) int {
	u := &dl.utts[t.utt]
	for ci, cl := range u.clauses {
		for _, w := range u.words[cl[0]:cl[1]] {
			if t.verb != "" && lexicon.Stem(w.lower) == t.verb {
				return ci
			}
		}
	}
	return 0
}

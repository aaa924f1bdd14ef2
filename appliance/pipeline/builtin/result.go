package builtin

import (
	"strings"
	"time"

	"github.com/hearth-appliance/hearth/appliance/pipeline/lexicon"
)

// resultAfter: ws[from:to] is a thing and the state it is to be left in
// ("have the draft ready", "have the invoice paid by Friday"), which makes
// "have" a deed to do rather than a possession: a short noun phrase opened
// by a determiner, then a result word or a past participle.
func resultAfter(ws []cword, from, to int) bool {
	if from >= to || !ws[from].is(wcWithDeterminer) {
		return false
	}
	for k := from + 1; k < to && k <= from+4; k++ {
		w := ws[k].lower
		if inSet(leftInWords, w) || k > from+1 && len(w) > 4 && strings.HasSuffix(w, "ed") && !inSet(stopWords, w) {
			return true
		}
		if ws[k].punct != 0 {
			return false
		}
	}
	return false
}

var leftInWords = lexicon.NewSet(`ready done finished sorted written sent paid signed fixed booked filed printed
	submitted cleaned checked wrapped packed`)

// destination: the body after "going to" at ws[v] is a place, not a verb
// ("going to Chicago next week", "going to paris in march"): no task verb,
// and either a name or a word that only a place is followed by (a time,
// "for", "in", "with", the clause's end).
func destination(ws []cword, v, b int) bool {
	if v < 2 || v >= b || ws[v-1].lower != "to" || ws[v-2].lower != "going" || ws[v].is(wcTaskVerb) || ws[v].is(wcStop) {
		return false
	}
	if ws[v].cap || v+1 >= b || ws[v].punct != 0 {
		return true
	}
	next := ws[v+1].lower
	return inSet(afterPlace, next) || next != "the" && startsCue(ws, v+1)
}

var afterPlace = lexicon.NewSet(`for in on with at tomorrow tonight today later soon again`)

// forbidden: the body at ws[v] is a thing not to do ("don't eat after
// midnight", "do not drive", "never leave it unlocked"); "don't forget to"
// is matched as a request before this is asked.
func forbidden(ws []cword, v, b int) bool {
	switch ws[v].lower {
	case "don't", "dont", "never", "not":
		return true
	case "do":
		return wordAt(ws, v+1) == "not"
	}
	return false
}

// endsWithThen: clause ws[a:b] ends on "then" ("I'll come around six
// then"), which points back to the day the talk is about.
func endsWithThen(ws []cword, a, b int) bool {
	return b > a+1 && ws[b-1].lower == "then" && !inSet(deadlineWords, ws[b-2].lower)
}

// onDayOf is at's hour in loc on day's date.
func onDayOf(at, day time.Time, loc *time.Location) *time.Time {
	t, d := at.In(loc), day.In(loc)
	out := time.Date(d.Year(), d.Month(), d.Day(), t.Hour(), t.Minute(), 0, 0, loc).UTC()
	return &out
}

// nextThought ends a task body ws[from:to] where a run-on transcript starts
// another thought: a filler or "and" before a question or a new subject
// ("send them the doc oh and can someone book a room").
func nextThought(ws []cword, from, to int) int {
	for k := from + 2; k+1 < to; k++ {
		w := ws[k].lower
		if !inSet(thoughtBreaks, w) {
			continue
		}
		n := k + 1
		if w != "and" && wordAt(ws, n) == "and" {
			n++
		}
		if nw := wordAt(ws, n); n < to && (inSet(questionAux, nw) || ws[n].is(wcSubjectPronoun) || nw == "someone" || nw == "somebody") {
			for k > from+1 && inSet(thoughtBreaks, ws[k-1].lower) {
				k--
			}
			return k
		}
	}
	return to
}

// thoughtBreaks open another thought in run-on speech.
var thoughtBreaks = lexicon.NewSet(`and oh um uh er erm anyway also`)

package builtin

import (
	"strings"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/pipeline/lexicon"
)

// Tasks dated by what was said around them.
//
// Tasks due before a plan. "I'll send a few discussion questions the day
// before" and "I'll reach out to three more before we talk again" are due
// by the next plan of the conversation: the day before it, or its start.

// dueBeforePlan dates the undated tasks said with "the day before" or
// "before we talk/meet again" by the earliest plan in evs.
func (dl *dialogue) dueBeforePlan(tasks []task, evs []appliance.Event, tm timing) {
	if len(evs) == 0 || !tm.known() {
		return
	}
	next := evs[0].Start
	for _, e := range evs[1:] {
		if e.Start.Before(next) {
			next = e.Start
		}
	}
	day := next.In(tm.loc)
	for k := range tasks {
		t := &tasks[k]
		if t.utt < 0 || t.utt >= len(dl.utts) {
			continue
		}
		var at time.Time
		switch ws := dl.utts[t.utt].words; {
		case hasPhrase(ws, "the", "night", "before") || hasPhrase(ws, "the", "evening", "before"):
			// "I'll pack the lunches the night before": not tonight, the
			// evening before the plan
			at = time.Date(day.Year(), day.Month(), day.Day()-1, eveningHour, 0, 0, 0, tm.loc)
			t.desc = strings.TrimSuffix(strings.TrimSuffix(t.desc, " the night before"), " the evening before")
		case t.due != nil:
			continue
		case hasPhrase(ws, "the", "day", "before"):
			at = time.Date(day.Year(), day.Month(), day.Day()-1, 23, 59, 0, 0, tm.loc)
			// "before" went as trailing noise, "the day" stayed
			t.desc = strings.TrimSuffix(strings.TrimSuffix(t.desc, " the day before"), " the day")
		case beforeMeetingAgain(ws), t.verb == "bring" && len(evs) == 1:
			// "bring the revised pricing" to the one plan of the talk: by its start
			at = next
		default:
			// "ideally before the move", "I'll circulate it a week before"
			dueBeforeNamed(t, ws, evs, tm)
			continue
		}
		if at.Before(tm.start) {
			continue
		}
		at = at.UTC()
		t.due = &at
	}
}

// dueWhenReady dates an undated pick-up by when what is picked up is
// ready or arrives, said in the two turns before: "My parents land on
// Friday the 13th at 6:40 in the evening." "I'll pick them up at the
// airport."
func (dl *dialogue) dueWhenReady(tasks []task, tm timing) {
	if !tm.known() {
		return
	}
	for k := range tasks {
		t := &tasks[k]
		if t.due != nil || !inSet(pickupStems, t.verb) || t.utt < 0 || t.utt >= len(dl.utts) {
			continue
		}
		seg := dl.utts[t.utt].seg
		for j := t.utt - 1; j >= 0 && dl.utts[j].seg >= seg-2 && t.due == nil; j-- {
			v := &dl.utts[j]
			for _, cl := range v.clauses {
				if !hasAny(v.words, cl[0], cl[1], readyWords) {
					continue
				}
				c := scanCues(v.words, cl[0], cl[1], tm.ref, nil)
				if !c.date || c.past || c.recurring {
					continue
				}
				if r, ok := c.resolve(tm.start, tm.loc); ok && !r.at.Before(tm.start) {
					at := r.at
					t.due = &at
					break
				}
			}
		}
	}
}

// pickupStems are the stems of fetching a person or a thing.
var pickupStems = lexicon.NewSet(`pick collect fetch`)

// readyWords say when someone or something can be fetched.
var readyWords = lexicon.NewSet(`ready land lands landing arrive arrives arriving finish finishes ends done`)

func hasAny(ws []cword, a, b int, set lexicon.Set) bool {
	for j := a; j < b; j++ {
		if inSet(set, ws[j].lower) {
			return true
		}
	}
	return false
}

// beforeMeetingAgain: "before we talk again", "before we meet next".
func beforeMeetingAgain(ws []cword) bool {
	for j := 0; j+2 < len(ws); j++ {
		if ws[j].lower == "before" && ws[j+1].lower == "we" && inSet(talkVerbs, ws[j+2].lower) {
			return true
		}
	}
	return false
}

func hasPhrase(ws []cword, seq ...string) bool {
	for j := range ws {
		if hasSeq(ws, j, seq...) {
			return true
		}
	}
	return false
}

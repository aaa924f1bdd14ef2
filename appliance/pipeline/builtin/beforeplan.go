package builtin

import (
	"strings"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

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
		if t.due != nil || t.utt < 0 || t.utt >= len(dl.utts) {
			continue
		}
		var at time.Time
		switch ws := dl.utts[t.utt].words; {
		case hasPhrase(ws, "the", "day", "before"):
			at = time.Date(day.Year(), day.Month(), day.Day()-1, 23, 59, 0, 0, tm.loc)
			// "before" went as trailing noise, "the day" stayed
			t.desc = strings.TrimSuffix(strings.TrimSuffix(t.desc, " the day before"), " the day")
		case beforeMeetingAgain(ws):
			at = next // before it starts
		default:
			continue
		}
		if at.Before(tm.start) {
			continue
		}
		at = at.UTC()
		t.due = &at
	}
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

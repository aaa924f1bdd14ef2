package builtin

import (
	"time"

	"github.com/hearth-appliance/hearth/appliance"

	"github.com/hearth-appliance/hearth/appliance/pipeline/lexicon"
)

// Date-only plans. Some plans fill a day or have no hour anyone can say:
// "the offsite is confirmed for the fourteenth and fifteenth of january",
// "maya's swim meet is on saturday, it runs all day", "your sofa will be
// delivered on saturday the 28th", "school is closed on friday the fourth".
// A clause is such a plan when it names a day-long thing, a thing booked or
// arranged for a day, or a plan whose day the conversation says takes all
// day, with a date and no hour. The
// event model has no all-day flag, so the plan starts at the morning hour
// (the day part's default) on its date.

// dayLongNouns name things that take a day or more, or happen some time in
// a day without an hour.
var dayLongNouns = lexicon.NewSet(`offsite off-site conference summit retreat convention expo fair festival
	tournament meet audit auditors trip holiday vacation closed closure delivery delivered moving camp
	marathon race hackathon`)

// allDayPhrases say that a plan takes the whole day or has no hour.
var allDayPhrases = [][]string{
	{"all", "day"}, {"whole", "day"}, {"full", "day"}, {"full", "days"}, {"two", "days"}, {"both", "days"},
	{"any", "time", "that", "day"}, {"all", "weekend"},
}

// saysAllDay: ws[a:b] says the plan takes the day ("it runs all day").
func saysAllDay(ws []cword, a, b int) bool {
	for j := a; j < b; j++ {
		if matchAt(ws, j, b, allDayPhrases) > 0 {
			return true
		}
	}
	return false
}

// allDayNear: the clause or one of the two utterances after it says the
// plan takes the day ("so I need to be in all day", "great so two full
// days").
func (dl *dialogue) allDayNear(i, a, b int) bool {
	if saysAllDay(dl.utts[i].words, a, b) {
		return true
	}
	for j := i + 1; j < len(dl.utts) && j <= i+2; j++ {
		if saysAllDay(dl.utts[j].words, 0, len(dl.utts[j].words)) {
			return true
		}
	}
	return false
}

// dayLongAt is where clause ws[a:b] names a day-long thing, -1 when none.
func dayLongAt(ws []cword, a, b int) int {
	for j := a; j < b; j++ {
		if inSet(dayLongNouns, ws[j].lower) {
			return j
		}
	}
	return -1
}

// dayIn reads a date-only plan in clause ws[a:b] of utterance i.
func (dl *dialogue) dayIn(i int, ws []cword, a, b int, tm timing) (appliance.Event, bool) {
	u := &dl.utts[i]
	if u.question || indexInt(u.tasks, a) >= 0 {
		return appliance.Event{}, false
	}
	var title string
	if k := dayLongAt(ws, a, b); k >= 0 {
		if t, visit := eventTrigger(ws, a, b, u.isUser); t >= 0 {
			k = t // "your sofa will be delivered": a delivery
			title = dl.eventTitle(i, ws, a, k, visit)
		} else {
			title = dl.eventTitle(i, ws, a, k, false)
		}
	} else if np := bookedThing(ws, a, b); len(np) > 0 {
		// "they've arranged the office move for Saturday the 12th"
		title = titleCase(np)
	} else if dl.allDayNear(i, a, b) {
		// "the christmas market is on saturday the nineteenth all day"
		if k, visit := eventTrigger(ws, a, b, u.isUser); k >= 0 {
			title = dl.eventTitle(i, ws, a, k, visit)
		} else if np := subjectThing(ws, a, b); len(np) > 0 {
			title = titleCase(np)
		}
	}
	if title == "" {
		title = dl.dayLongBefore(i, ws, a)
	}
	if title == "" {
		return appliance.Event{}, false
	}
	for j := a; j < b; j++ {
		if pastAt(ws, j) || ws[j].lower == "due" || ws[j].lower == "deadline" || ws[j].lower == "by" {
			return appliance.Event{}, false
		}
	}
	c := scanCues(ws, a, b, tm.ref, nil)
	if !c.date || c.clock || c.part > 0 || c.past || c.recurring || c.rel || c.deadline {
		return appliance.Event{}, false
	}
	c.part = morningHour
	r, ok := c.resolve(tm.start, tm.loc)
	if !ok || r.at.Before(tm.start) {
		return appliance.Event{}, false
	}
	if otherPeoplesPlan(ws, a, b) && !dl.userTakesPart(i) || dl.wishedWell(i) {
		return appliance.Event{}, false
	}
	if dl.userKnown && !u.isUser && tellersOwn(ws, a, b) {
		// "I'm off to Lisbon on Thursday for the conference": the teller's
		return appliance.Event{}, false
	}
	return appliance.Event{
		Title:       title,
		Description: eventDescription(u, a, b),
		Start:       r.at.Truncate(time.Minute),
		Duration:    appliance.DefaultEventMinutes,
	}, true
}

// dayLongBefore names the day-long thing an answer dates with "it": "Are
// you going to the data conference in Lyon?" "Yes, it's the 9th and 10th
// of December." The thing must be named in one of the two utterances
// before, by another speaker, in a question, or by the teller in the same
// segment ("The offsite was going to be the 15th, but the venue
// double-booked us. It's now Tuesday the 19th of January").
func (dl *dialogue) dayLongBefore(i int, ws []cword, a int) string {
	s := skipDiscourse(ws, a, len(ws))
	if w := wordAt(ws, s); w != "it's" && w != "that's" && !hasSeq(ws, s, "it", "is") && !hasSeq(ws, s, "it", "runs") {
		return ""
	}
	for j := i - 1; j >= 0 && j >= i-2; j-- {
		v := &dl.utts[j]
		if v.speaker == dl.utts[i].speaker && !v.question && v.seg != dl.utts[i].seg {
			continue // the teller's own thing counts only in the same breath
		}
		pw := v.words
		if k := dayLongAt(pw, 0, len(pw)); k >= 0 {
			if t, visit := eventTrigger(pw, 0, len(pw), v.isUser); t >= 0 {
				return dl.eventTitle(j, pw, 0, t, visit)
			}
			return dl.eventTitle(j, pw, 0, k, false)
		}
	}
	return ""
}

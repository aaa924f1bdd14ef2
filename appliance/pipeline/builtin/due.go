package builtin

import (
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// Due dates. A task's time cue is read from its own clause only: the words
// from the task's opening ("can you", "I need to", "remind me") to the end
// of the clause, and a cue that opens the clause ("Tomorrow I need to…", "By
// Friday can you…"). Cue words between the two belong to an earlier thought
// run into the same clause ("thanks for joining the call this morning we
// need to send…"). A due date never lies before the conversation's end:
//   - a cue that resolves to a time already past when the conversation
//     ended ("this morning" said at 15:00, "at two" said at 14:30) gives no
//     due date; when the clause holds a later cue ("the report you mentioned
//     this morning, by Friday"), that one is used instead;
//   - a day part still under way when the conversation ends ("tonight" at
//     18:10, "this morning" at 10:15) moves its default hour (18:00, 9:00)
//     to the next full hour after the end (19:00, 11:00), no later than
//     23:59; a day part that is over ("this morning" at 15:00) gives none;
//   - words that put the time in the past ("yesterday", "last Friday", "two
//     weeks ago") give no due date either, as the reference clears dates
//     more than a day past and a past date is no reminder;
//   - without a known start nothing relative is resolved.

// timing is what the extractors know of when the conversation happened.
type timing struct {
	start time.Time      // the conversation's start; zero when unknown
	end   time.Time      // its end: start plus the duration, or the last segment's end
	loc   *time.Location // the user's zone
	ref   time.Time      // start in loc
}

// newTiming reads the conversation's start, end and zone from in.
func newTiming(in appliance.TranscriptInput) timing {
	loc := in.Location
	if loc == nil {
		loc = time.Local
	}
	d := in.Duration
	if n := len(in.Segments); d <= 0 && n > 0 && in.Segments[n-1].End > 0 {
		d = time.Duration(in.Segments[n-1].End * float64(time.Second))
	}
	return timing{start: in.StartedAt, end: in.StartedAt.Add(max(d, 0)), loc: loc, ref: in.StartedAt.In(loc)}
}

// known: without a start nothing relative can be resolved.
func (tm timing) known() bool { return !tm.start.IsZero() }

// due resolves the cue of ws[a:b] as a due date, marking its words in used
// (which may be nil). found reports whether the clause holds a cue at all.
func (tm timing) due(ws []cword, a, b int, used []bool) (at *time.Time, found bool) {
	c := scanCues(ws, a, b, tm.ref, used)
	if !c.found || !tm.known() {
		return nil, c.found
	}
	for {
		if t, ok := tm.dueOf(c); ok {
			return &t, true
		}
		// what the clause says after its first cue, if anything
		a = nextCueEnd(ws, a, b, tm.ref)
		if c = scanCues(ws, a, b, tm.ref, nil); !c.found {
			return nil, true
		}
	}
}

// nextCueEnd is where the first cue of ws[from:to] ends, to when there is none.
func nextCueEnd(ws []cword, from, to int, ref time.Time) int {
	sc := cueScanner{ws: ws[:to], ref: ref}
	for i := from; i < to; i++ {
		if n := sc.at(i); n > 0 {
			return i + n
		}
	}
	return to
}

// dueOf resolves one cue as a due date, if it names one that is not past.
func (tm timing) dueOf(c timeCue) (time.Time, bool) {
	r, ok := c.resolve(tm.start, tm.loc)
	if !ok || c.past {
		return time.Time{}, false
	}
	if !r.at.Before(tm.end) {
		return r.at, true
	}
	if c.part > 0 && !c.clock && !c.rel {
		at, end := r.at.In(tm.loc), tm.end.In(tm.loc)
		if at.YearDay() == end.YearDay() && at.Year() == end.Year() && end.Hour() < partEnds(c.part) {
			next := time.Date(end.Year(), end.Month(), end.Day(), end.Hour()+1, 0, 0, 0, tm.loc)
			if next.Day() != end.Day() {
				next = time.Date(end.Year(), end.Month(), end.Day(), 23, 59, 0, 0, tm.loc)
			}
			if next.After(tm.end) {
				return next.UTC(), true
			}
		}
	}
	return time.Time{}, false
}

// partEnds is the hour a day part is over: morning at noon, afternoon at
// 18:00, evening at midnight.
func partEnds(part int) int {
	switch part {
	case morningHour:
		return 12
	case afternoonHour:
		return eveningHour
	}
	return 24
}

// taskDue is the due date of a task opening at ws[open] in clause ws[a:b]
// whose cues, read over the whole clause, gave said and marked used.
func (tm timing) taskDue(ws []cword, a, open, b int, used []bool, said *time.Time) *time.Time {
	lead := skipDiscourse(ws, a, b)
	k := lead
	for k < open && used[k] {
		k++ // the cue that opens the clause
	}
	stray := false
	for j := k; j < open && !stray; j++ {
		stray = used[j]
	}
	if !stray {
		return said
	}
	if d, _ := tm.due(ws, open, b, nil); d != nil {
		return d
	}
	if k > lead {
		d, _ := tm.due(ws, lead, k, nil)
		return d
	}
	return nil
}

// taskOpener is where a task whose body starts at ws[body] opens: its
// subject ("we need to…") or else the clause's first word after discourse
// words ("can you…", "remind me to…").
func taskOpener(ws []cword, a, body int) int {
	for k := body - 1; k >= a; k-- {
		if subj, _ := expandSubject(ws[k].lower); subj != "" {
			return k
		}
	}
	return skipDiscourse(ws, a, body)
}

// frontedDay: clause ci says only an hour ("and then pick up the kids at
// three fifteen") after an earlier clause of the same utterance said only a
// day ("tomorrow i have to call the bank about the card"): the hour is on
// that day, as a day said first scopes the sentence. Nil when it is not so.
func (tm timing) frontedDay(ws []cword, cls [][2]int, ci int) *time.Time {
	if !tm.known() {
		return nil
	}
	c := scanCues(ws, cls[ci][0], cls[ci][1], tm.ref, nil)
	if !c.clock || c.date || c.past || c.rel || c.recurring {
		return nil
	}
	for k := ci - 1; k >= 0; k-- {
		d := scanCues(ws, cls[k][0], cls[k][1], tm.ref, nil)
		if !d.found {
			continue
		}
		if s := skipDiscourse(ws, cls[k][0], cls[k][1]); s >= cls[k][1] || !startsCue(ws, s) && wordAt(ws, s) != "on" || !fronted(ws, s, cls[k][1]) {
			// only a day said first scopes what follows: "the party is on
			// saturday i'll ring the caterer at two" rings today
			return nil
		}
		if !d.date || d.clock || d.past || d.recurring || d.rel || d.deadline {
			return nil
		}
		c.date, c.y, c.mon, c.day = true, d.y, d.mon, d.day
		r, ok := c.resolve(tm.start, tm.loc)
		if !ok || r.at.Before(tm.start) {
			return nil
		}
		at := r.at.UTC()
		return &at
	}
	return nil
}

// fronted: the clause at ws[s:b] opens with its time cue and then a subject
// ("tomorrow i have to…", "on friday we need to…").
func fronted(ws []cword, s, b int) bool {
	if w := wordAt(ws, s); (w == "on" || w == "by") && s+1 < b {
		s++ // "on saturday i'm taking the kids swimming"
	}
	used := make([]bool, len(ws))
	scanCues(ws, s, min(b, s+4), time.Time{}, used)
	k := s
	for k < b && used[k] {
		k++
	}
	return k > s && k < b && (inSet(firstPerson, ws[k].lower) || inSet(runOnOpeners, ws[k].lower))
}

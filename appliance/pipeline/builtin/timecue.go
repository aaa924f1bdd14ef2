package builtin

import (
	"strconv"
	"strings"
	"time"

	"github.com/hearth-appliance/hearth/appliance/pipeline/lexicon"
)

// Time cues are the words that date a task or a plan ("by Friday",
// "tomorrow morning", "in two hours", "on March 3rd at 3 pm"). They are
// resolved in the user's time zone relative to when the conversation
// started, and returned in UTC.
//
// The grammar has three layers. Numbers (numwords.go) are read over one or
// two words, as digits or words: "25", "twenty five", "twenty-fifth",
// "thirty first". Constituents are built from them: a clock ("9:30", "9
// 30", "nine thirty", "nine oh five", "8 am", "20:00", "half past two",
// "twenty to nine", "noon"), a date ("November 30th", "the 1st", "first of
// December", "30 November 2026", "Monday the 30th", "next Tuesday", "a
// week from Friday", "end of the year"), a day part, a range ("from 2 to
// 4") or an offset ("in forty five minutes", "in a fortnight"). A clause's
// constituents then combine into one cue (timeCue.resolve): an explicit
// date beats a weekday, the first clock wins, a day part or "pm" word sets
// the half of the day. testdata/timegrammar/phrases.tsv lists the phrases
// and the instants they name.
//
// Where language is vague the resolver follows fixed conventions, so the
// same words always give the same time:
//   - day parts use the reference's defaults: morning 9:00, afternoon 14:00,
//     evening, tonight and night 18:00; a date with no time is due at 23:59
//     (the reference's "none");
//   - "end of (the) day", "EOD" and "close of business" are 17:00 today;
//   - "by mid December" is the 15th; "before the weekend" is Friday;
//   - a bare weekday ("Friday", "on Friday", "by Friday") is its next
//     occurrence, a week ahead when it names today; "this Friday" said on a
//     Friday is today; "next Tuesday" and "Tuesday next week" are the Tuesday
//     of the next Monday-based week;
//   - "this week" and "end of the week" are Friday 23:59 (Sunday 23:59 when
//     said on a Saturday, the coming Friday when said on a Sunday); "next
//     week" is Friday 23:59 of next week;
//   - "early", "mid" and "late next week" are its Monday, Wednesday and
//     Friday, as are "the start", "the middle" of it; "within the week" is
//     this week's Friday; "the week after next" is that week's Friday, "the
//     Monday after next" a week after next Monday; "a week today" is seven
//     days on; "the beginning of next month" is its first, "the middle of
//     the month" the 15th;
//   - "end of play" is "end of day"; "before lunch" is noon; "by half five"
//     is 5:30; "at the latest" after a time adds nothing;
//   - "this weekend", "over the weekend" and "the weekend" are Sunday 23:59;
//     "by the weekend" is Friday 23:59;
//   - "end of the month" and "this month" are the last day of the month at
//     23:59; "next month" is the last day of next month;
//   - "in two hours" and "in 30 minutes" are exact offsets from the start;
//     "in three days" and "in two weeks" are dates (23:59);
//   - "ASAP" and "right away" are two hours after the start (reference);
//   - a clock hour without am/pm is afternoon for 1–6, morning for 7–11 and
//     noon for 12, unless the sentence says evening, tonight or dinner (pm)
//     or morning or breakfast (am);
//   - a clock time with no date is today, or tomorrow once today's has passed;
//     a bare hour whose morning has passed is this evening's when that is at
//     most three hours away ("around seven" said at six in the evening);
//   - a clock followed by a zone ("2 pm eastern", "4 pm Tokyo time") is that
//     zone's wall clock on the day said (zone.go);
//   - "before Wednesday" (a date without a time) is the day before, 23:59;
//   - "after work" and "after dinner" are evening, "after school" and "after
//     lunch" afternoon, "before work" and "before school" morning.
//
// Local times are always built with time.Date in the user's zone, so a date
// on the far side of a DST change keeps its wall-clock hour.

// Default hours: the reference reads morning as 9, afternoon as 14, evening
// as 18 and ASAP as two hours from now.
const (
	morningHour   = 9
	afternoonHour = 14
	eveningHour   = 18
	eodHour       = 17
	asapOffset    = 2 * time.Hour
	// soonHours: a bare hour said this many hours or fewer before it comes
	// round in the evening is this evening's
	soonHours = 3
)

// timeCue accumulates what the cue words of one clause say.
type timeCue struct {
	found bool
	// date, in the user's zone
	date         bool
	y            int
	mon          time.Month
	day          int
	fromWeekday  bool // the date came from a weekday; an explicit date wins
	monthless    bool // "the 10th": a day of the month whose month was not said
	deadline     bool // an end-of-period deadline with its own default time
	defH, defMin int
	// clock
	clock     bool
	hour, min int
	meridiem  byte // 'a', 'p' or 0
	rangeMin  int  // "between 8 and 10": minutes from start to end
	part      int  // day-part default hour, 0 when none
	amHint    bool
	pmHint    bool
	rel       bool // an exact offset from the start
	offset    time.Duration
	past      bool   // "yesterday", "last week", "two days ago"
	recurring bool   // "every morning": not a date at all
	dayBefore bool   // "before Wednesday": a date without a time ends the day before
	zone      string // the zone the clock was said in ("two pm eastern"), "" for the user's
}

// cueScanner finds cues in ws[from:to] relative to ref (the start, in the
// user's zone) and marks the words they occupy in used.
type cueScanner struct {
	ws   []cword
	ref  time.Time
	used []bool
	c    timeCue
	// a week said ("next week", "this week"), weeks ahead, so that a
	// weekday said with it in either order names its day in that week
	week  bool
	weeks int
	// the weekday said, -1 when none
	wd time.Weekday
}

// scanCues reads the cues of ws[from:to]. used, when not nil, has one entry
// per word of ws and gets the cue words (with their prepositions) marked.
func scanCues(ws []cword, from, to int, ref time.Time, used []bool) timeCue {
	sc := cueScanner{ws: ws[:to], ref: ref, used: used, wd: -1}
	for i := from; i < to; {
		n := sc.at(i)
		if n == 0 {
			i++
			continue
		}
		sc.c.found = true
		sc.mark(from, i, n)
		i += n
		if sc.c.clock {
			if z, k := zoneAt(ws, i); k > 0 && i < to {
				sc.c.zone = z
				sc.mark(from, i, k)
				i += k
			}
		}
	}
	if sc.c.recurring && sc.c.date && !sc.c.fromWeekday {
		// "every second Tuesday, so the next one is the 15th at eight": a
		// series with one of its days named, which is that day
		sc.c.recurring = false
	}
	return sc.c
}

// absorbable words belong to the cue that follows them: "by Friday", "by
// the end of the month", "later today".
var absorbable = lexicon.NewSet(`by on at before until till til for around from later the this sometime no than within
	over`)

func (sc *cueScanner) mark(from, i, n int) {
	if sc.used == nil {
		return
	}
	for k := i; k < i+n; k++ {
		sc.used[k] = true
	}
	for k := i - 1; k >= from && !sc.used[k] && inSet(absorbable, sc.ws[k].lower); k-- {
		sc.used[k] = true
		if sc.ws[k].punct != 0 {
			break
		}
	}
}

// Cue matchers. Each returns how many words it consumed, 0 for no match.

func (sc *cueScanner) at(i int) int {
	ws := sc.ws
	w := ws[i].lower
	if n := sc.superseded(i); n > 0 {
		return n
	}
	if w == "to" && inSet(movedVerbs, wordAt(ws, i-1)) {
		// "moved to twelve forty five", "pushed to 4:30": the new time
		return sc.clockAfter(i)
	}
	if w == "for" && bookingBefore(ws, i) {
		// "a table at Rosa's for seven thirty", "booked it for 8 pm"; a bare
		// "for two" or "for 8" is how many
		if h, m, mer, n := clockAt(ws, i+1, false); n > 0 && (mer != 0 || m != 0 || strings.Contains(wordAt(ws, i+1), ":") || dayPartHour(wordAt(ws, i+1+n)) > 0) {
			// "booked for 8 tonight": an hour with its day part
			sc.setClock(h, m, mer)
			return 1 + n
		}
	}
	if base := strings.TrimSuffix(w, "'s"); base != w && weekdayOf(base) >= 0 && !sc.c.date {
		// "before Friday's meeting": the day of the thing it names
		n := sc.weekday(i, time.Weekday(weekdayOf(base)), false)
		if n == 1 && (inSet(eventNouns, wordAt(ws, i+1)) || inSet(modifiedNouns, wordAt(ws, i+1))) {
			n = 2 // the thing goes with its day: "email the slides before Friday's meeting"
		}
		return n
	}
	if len(w) > 6 && w[len(w)-1] == 's' && weekdayOf(w[:len(w)-1]) >= 0 {
		sc.c.recurring = true // "on Tuesdays": every Tuesday
		return 1
	}
	if !mayStartCue(&ws[i]) {
		return 0 // most words start no cue: one lookup instead of a dozen
	}
	if prev := wordAt(ws, i-1); prev == "every" || prev == "each" || prev == "other" && wordAt(ws, i-2) == "every" {
		if dayPartHour(w) > 0 || weekdayOf(w) >= 0 || w == "day" || w == "week" {
			sc.c.recurring = true
			return 1
		}
		// "every second Tuesday", "every third week"
		next := wordAt(ws, i+1)
		if d, n := ordinalAt(ws, i); n == 1 && d < 5 && (weekdayOf(next) >= 0 || next == "day" || next == "week" || next == "month") {
			sc.c.recurring = true
			return 2
		}
	}
	switch w {
	case "today", "today's":
		sc.setDate(sc.ref, 0)
		return 1
	case "tonight", "tonight's":
		sc.setDate(sc.ref, 0)
		sc.setPart(eveningHour)
		return 1
	case "tomorrow", "tomorrow's", "tmrw", "tmr":
		sc.setDate(sc.ref, 1)
		return 1
	case "yesterday":
		sc.setDate(sc.ref, -1)
		sc.c.past = true
		return 1
	case "day":
		if hasSeq(ws, i, "day", "after", "tomorrow") {
			sc.setDate(sc.ref, 2)
			return 3
		}
	case "morning", "afternoon", "evening", "night":
		sc.setPart(dayPartHour(w))
		return 1
	case "noon", "midday", "lunchtime":
		sc.setClock(12, 0, 0)
		return 1
	case "midnight":
		sc.setClock(23, 59, 0)
		return 1
	case "dinner", "supper", "drinks", "pm":
		// not a time, but a bare hour near them is in the evening
		sc.c.pmHint = true
		return 0
	case "breakfast", "am":
		sc.c.amHint = true
		return 0
	case "eod", "cob":
		sc.endOfDay()
		return 1
	case "thanksgiving", "christmas", "halloween", "new":
		return sc.holiday(i)
	case "mid", "mid-":
		// "by mid december": the middle of the month
		if m, ok := months[wordAt(ws, i+1)]; ok {
			sc.setMonthDay(m, 15)
			return 2
		}
		return sc.partOfWeek(i, time.Wednesday)
	case "early":
		return sc.partOfWeek(i, time.Monday)
	case "start", "beginning", "middle":
		return sc.partOfPeriod(i)
	case "late", "later":
		return sc.partOfWeek(i, time.Friday)
	case "asap":
		sc.setRel(asapOffset)
		return 1
	case "immediately":
		sc.setRel(asapOffset)
		return 1
	case "first":
		if hasSeq(ws, i, "first", "thing") {
			sc.setPart(morningHour)
			return 2
		}
	case "right":
		if hasSeq(ws, i, "right", "away") || hasSeq(ws, i, "right", "now") {
			sc.setRel(asapOffset)
			return 2
		}
	case "as":
		if hasSeq(ws, i, "as", "soon", "as", "possible") {
			sc.setRel(asapOffset)
			return 4
		}
	case "close":
		if hasSeq(ws, i, "close", "of", "business") || hasSeq(ws, i, "close", "of", "play") {
			sc.endOfDay()
			return 3
		}
	case "end":
		return sc.endOf(i)
	case "this", "next", "coming", "following", "last":
		return sc.modified(i)
	case "weekend":
		// "the weekend", "over the weekend"; "by the weekend" means before it
		if wordAt(ws, i-1) == "the" && (wordAt(ws, i-2) == "by" || wordAt(ws, i-2) == "before") {
			sc.weekEnd(0, time.Friday)
		} else {
			sc.weekEnd(0, time.Sunday)
		}
		return 1
	case "in", "within":
		return sc.in(i)
	case "at", "around", "by", "from", "between", "until", "till", "before", "after", "over":
		if h := routineHour(wordAt(ws, i+1)); h > 0 && (w == "after" || w == "before" || (w == "at" || w == "over") && isMeal(wordAt(ws, i+1))) {
			// "after work", "before school", "over lunch": the day part around a routine
			if w == "before" && wordAt(ws, i+1) == "lunch" {
				// "before lunch": by noon, today while the morning lasts
				sc.setClock(12, 0, 0)
				return 2
			}
			if w == "before" {
				h = routineBefore(wordAt(ws, i+1))
			}
			sc.setPart(h)
			return 2
		}
		if w == "after" || w == "over" {
			return 0
		}
		if w == "at" && hasSeq(ws, i+1, "the", "latest") && (sc.c.date || sc.c.clock) {
			// "by Wednesday at the latest": the deadline already said
			return 3
		}
		if w == "at" && hasSeq(ws, i+1, "the", "very", "latest") && (sc.c.date || sc.c.clock) {
			return 4
		}
		n := sc.clockAfter(i)
		if n == 0 && w == "before" && (weekdayOf(strings.TrimSuffix(wordAt(ws, i+1), "'s")) >= 0 || wordAt(ws, i+1) == "the" && (numberWord(wordAt(ws, i+2)) || digitAt(wordAt(ws, i+2), 0)) ||
			i+1 < len(ws) && monthOf(ws, i+1) > 0) {
			// "sign it before wednesday": done by the day before
			sc.c.dayBefore = true
		}
		return n
	case "half", "quarter":
		return sc.pastTo(i, false)
	case "the":
		if hasSeq(ws, i, "the", "day", "after", "tomorrow") {
			sc.setDate(sc.ref, 2)
			return 4
		}
		if hasSeq(ws, i, "the", "week", "after", "next") {
			// the week after next week: its Friday, as "next week" is next
			// week's
			sc.weekEnd(2, time.Friday)
			return 4
		}
		if p := wordAt(ws, i+1); (dayPartHour(p) > 0 || p == "day") && (wordAt(ws, i+2) == "before" || wordAt(ws, i+2) == "after") {
			// "no food after ten the night before": relative to the plan,
			// not a day part of its own
			return 3
		}
		return sc.ordinalDate(i)
	}
	if wd := weekdayOf(w); wd >= 0 {
		return sc.weekday(i, time.Weekday(wd), false)
	}
	if m := monthOf(ws, i); m > 0 {
		return sc.monthDay(i, m)
	}
	if n := sc.dayMonth(i); n > 0 {
		return n
	}
	if n := sc.isoDate(i); n > 0 {
		return n
	}
	if n := sc.ago(i); n > 0 {
		return n
	}
	if n := sc.pastTo(i, false); n > 0 {
		return n // "twenty past nine"
	}
	// an hour and its minutes right after the date, as a list of when:
	// "Wednesday the 16th, seven thirty, at my place", "friday the fourth
	// nine fifteen"
	if sc.c.date && !sc.c.clock && i > 0 && (ws[i-1].punct == ',' || weekdayOf(ws[i-1].lower) >= 0 || ordinalEnds(ws, i)) {
		if h, m, mer, n := clockAt(ws, i, false); n >= 2 && m != 0 && (i+n == len(ws) || ws[i+n-1].punct != 0 || inSet(stopWords, wordAt(ws, i+n))) {
			sc.setClock(h, m, mer)
			return n
		}
	}
	// an hour and its minutes said as what a time is: "same time, which is
	// 8 30", "say nine fifteen", "around ten forty"
	if i > 0 && ws[i-1].punct == 0 && inSet(clockLeads, ws[i-1].lower) {
		if h, m, mer, n := clockAt(ws, i, false); n >= 2 && m != 0 {
			sc.setClock(h, m, mer)
			return n
		}
	}
	// a clock with a marker needs no preposition: "3pm", "15:30", "six o'clock"
	if h, m, mer, n := clockAt(ws, i, true); n > 0 {
		sc.setClock(h, m, mer)
		return n
	}
	return 0
}

// clockLeads before an hour and its minutes say that they are a time: the
// copula of "the time is", "say" of a proposal, "around" of an estimate.
var clockLeads = lexicon.NewSet(`is it's 's was say around about approximately roughly`)

// deadlineLeads before "half five" make it a clock too: "by half five".
var deadlineLeads = lexicon.NewSet(`by until till before`)

// ordinalEnds: a day's ordinal ends just before ws[i] ("the 16th", "the
// twenty first").
func ordinalEnds(ws []cword, i int) bool {
	for k := i - 1; k >= 0 && k >= i-2; k-- {
		if _, n := ordinalAt(ws, k); n > 0 && k+n == i {
			return true
		}
	}
	return false
}

// routineHour is the day part after a daily routine: "after work" and
// "after dinner" are evening, "after school" and "after lunch" afternoon.
func routineHour(w string) int {
	switch w {
	case "work", "dinner":
		return eveningHour
	case "school", "lunch":
		return afternoonHour
	}
	return 0
}

// isMeal: "at lunch", "over dinner" name a time; "at work", "at school" a
// place.
func isMeal(w string) bool { return w == "lunch" || w == "dinner" }

// routineBefore is the day part before one: "before work" is morning.
func routineBefore(w string) int {
	switch w {
	case "work", "school":
		return morningHour
	case "lunch":
		return morningHour
	}
	return eveningHour
}

// cueStarts are the words a cue can begin with (besides digits); keep in
// step with the matchers of cueScanner.at.
var cueStarts = lexicon.NewSet(`today today's tonight tonight's tomorrow tomorrow's tmrw tmr yesterday day
	morning afternoon evening night noon midday lunchtime midnight dinner supper drinks pm breakfast am
	eod cob asap immediately first right as close end this next coming following last weekend in
	within at around by from between until till before after over half quarter the
	monday tuesday wednesday thursday friday saturday sunday
	january jan february feb march april may june july august aug september sept sep october oct
	november nov december dec a an few couple one two three four five six seven eight nine ten eleven
	twelve fifteen twenty thirty forty forty-five fifty sixty ninety`)

func dayPartHour(w string) int {
	switch w {
	case "morning":
		return morningHour
	case "afternoon":
		return afternoonHour
	case "evening", "night", "tonight":
		return eveningHour
	}
	return 0
}

func (sc *cueScanner) setDate(base time.Time, days int) {
	if sc.c.date && !sc.c.fromWeekday {
		return // the first explicit date wins
	}
	t := time.Date(base.Year(), base.Month(), base.Day()+days, 0, 0, 0, 0, base.Location())
	sc.c.date, sc.c.fromWeekday = true, false
	sc.c.y, sc.c.mon, sc.c.day = t.Year(), t.Month(), t.Day()
}

func (sc *cueScanner) setPart(h int) {
	if sc.c.part == 0 {
		sc.c.part = h
	}
	if h == morningHour {
		sc.c.amHint = true
	} else {
		sc.c.pmHint = true
	}
}

func (sc *cueScanner) setClock(h, m int, mer byte) {
	if sc.c.clock {
		return
	}
	sc.c.clock, sc.c.hour, sc.c.min, sc.c.meridiem = true, h, m, mer
}

// endOfDay: "end of day", "close of business", "EOD" are 17:00 of the day
// said with them, today when none is ("close of business Friday": the day
// said wins).
// partOfWeek reads "early next week" (its Monday), "mid next week" (its
// Wednesday) and "late next week" (its Friday), and the same of "this
// week" while that day is still ahead; a day of this week already past is
// the week's Friday, as "this week" is.
func (sc *cueScanner) partOfWeek(i int, day time.Weekday) int {
	ws := sc.ws
	mod := wordAt(ws, i+1)
	if wordAt(ws, i+2) != "week" || mod != "this" && mod != "next" {
		return 0
	}
	weeks := 0
	if mod == "next" {
		weeks = 1
	}
	if weeks == 0 && mondayIndex(day) < mondayIndex(sc.ref.Weekday()) {
		day = time.Friday
	}
	sc.weekEnd(weeks, day)
	return 3
}

// partOfPeriod reads "start of next week" (its Monday), "beginning of next
// month" (its first), "middle of next week" (its Wednesday), "middle of
// the month" (the 15th); "this week" likewise while the day is ahead.
func (sc *cueScanner) partOfPeriod(i int) int {
	ws := sc.ws
	if wordAt(ws, i+1) != "of" {
		return 0
	}
	mid := ws[i].lower == "middle"
	j, offset := i+2, 0
	switch wordAt(ws, j) {
	case "next":
		offset = 1
		j++
	case "this", "the":
		j++
	}
	switch wordAt(ws, j) {
	case "week":
		day := time.Monday
		if mid {
			day = time.Wednesday
		}
		if offset == 0 && mondayIndex(day) < mondayIndex(sc.ref.Weekday()) {
			return 0 // the start of a week already under way is past
		}
		sc.weekEnd(offset, day)
	case "month":
		d := 1
		if mid {
			d = 15
		}
		if offset == 0 && sc.ref.Day() >= d {
			return 0
		}
		t := time.Date(sc.ref.Year(), sc.ref.Month()+time.Month(offset), d, 0, 0, 0, 0, sc.ref.Location())
		sc.setMonthDayYear(t.Year(), t.Month(), t.Day())
		sc.setDeadline(23, 59)
	default:
		return 0
	}
	return j - i + 1
}

func (sc *cueScanner) endOfDay() {
	if !sc.c.date {
		sc.setDate(sc.ref, 0)
		sc.c.fromWeekday = true
	}
	sc.setDeadline(eodHour, 0)
}

func (sc *cueScanner) setDeadline(h, m int) {
	sc.c.deadline, sc.c.defH, sc.c.defMin = true, h, m
}

func (sc *cueScanner) setRel(d time.Duration) {
	if !sc.c.rel {
		sc.c.rel, sc.c.offset = true, d
	}
}

// weekday resolves a weekday name: the next occurrence, a week ahead when it
// is today unless "this" was said; nextWeek picks the one in next week.
func (sc *cueScanner) weekday(i int, wd time.Weekday, this bool) int {
	n := 1
	nextWeek := false
	if hasSeq(sc.ws, i+1, "next", "week") {
		nextWeek, n = true, 3
	}
	if hasSeq(sc.ws, i+1, "after", "next") && !sc.c.date {
		// "the monday after next": a week after next week's
		sc.resolveWeekday(wd, false, true)
		t := time.Date(sc.c.y, sc.c.mon, sc.c.day+7, 0, 0, 0, 0, sc.ref.Location())
		sc.c.y, sc.c.mon, sc.c.day = t.Year(), t.Month(), t.Day()
		return 3 + sc.bareClock(i+3)
	}
	sc.resolveWeekday(wd, this, nextWeek)
	if !nextWeek && wordAt(sc.ws, i+1) == "week" && sc.c.fromWeekday {
		// "monday week": a week after the coming Monday
		t := time.Date(sc.c.y, sc.c.mon, sc.c.day+7, 0, 0, 0, 0, sc.ref.Location())
		sc.c.y, sc.c.mon, sc.c.day = t.Year(), t.Month(), t.Day()
		n = 2
	}
	return n + sc.bareClock(i+n)
}

func (sc *cueScanner) resolveWeekday(wd time.Weekday, this, nextWeek bool) {
	if sc.c.date && !sc.c.fromWeekday {
		return
	}
	today := mondayIndex(sc.ref.Weekday())
	target := mondayIndex(wd)
	days := weekdayDistance(sc.ref.Weekday(), wd, this)
	if nextWeek {
		days = 7 - today + target
	}
	sc.wd = wd
	if sc.week && 7*sc.weeks+target-today >= 0 {
		// "next week on Wednesday", "is next week still Wednesday at six"
		days = 7*sc.weeks + target - today
		sc.c.deadline = false
	}
	sc.setDate(sc.ref, days)
	sc.c.fromWeekday = true
}

// weekdayDistance is how many days ahead the next wd is from today: a week
// when it is today, unless this ("this Friday" said on a Friday).
func weekdayDistance(today, wd time.Weekday, this bool) int {
	days := (mondayIndex(wd) - mondayIndex(today) + 7) % 7
	if days == 0 && !this {
		days = 7
	}
	return days
}

// mondayIndex numbers weekdays from Monday (0) to Sunday (6).
func mondayIndex(wd time.Weekday) int { return (int(wd) + 6) % 7 }

// weekEnd dates the given day (Friday or Sunday) of the current week, or of
// a later week; said on a Saturday, "this week" already means Sunday, said
// on a Sunday it means the week that starts the next day.
func (sc *cueScanner) weekEnd(weeks int, day time.Weekday) {
	today := mondayIndex(sc.ref.Weekday())
	sc.week, sc.weeks = true, weeks
	if sc.c.date && sc.c.fromWeekday && sc.wd >= 0 && 7*weeks+mondayIndex(sc.wd)-today >= 0 {
		// "Wednesday … next week": the weekday in that week
		sc.setDate(sc.ref, 7*weeks+mondayIndex(sc.wd)-today)
		sc.c.fromWeekday = true
		return
	}
	target := mondayIndex(day)
	switch {
	case weeks == 0 && day == time.Friday && today == mondayIndex(time.Sunday):
		// said on a Sunday, "this week" is the one about to start: people
		// plan it on Sunday evening
		target += 7
	case weeks == 0 && target < today:
		target = mondayIndex(time.Sunday)
	}
	explicit := sc.c.date && !sc.c.fromWeekday
	sc.setDate(sc.ref, 7*weeks+target-today)
	if !explicit {
		sc.c.fromWeekday = true // a weekday or a calendar date said with it is more precise
	}
	sc.setDeadline(23, 59)
}

// monthEnd dates the last day of the current month, or of a later one.
func (sc *cueScanner) monthEnd(months int) {
	first := time.Date(sc.ref.Year(), sc.ref.Month()+time.Month(months)+1, 1, 0, 0, 0, 0, sc.ref.Location())
	sc.setDate(first, -1)
	sc.setDeadline(23, 59)
}

// endOf: "end of (the|this|next) day|week|month", "end of business".
func (sc *cueScanner) endOf(i int) int {
	ws := sc.ws
	if wordAt(ws, i+1) != "of" {
		return 0
	}
	j := i + 2
	offset := 0
	switch wordAt(ws, j) {
	case "the", "this":
		j++
	case "next":
		offset = 1
		j++
	}
	switch wordAt(ws, j) {
	case "day", "business", "play":
		sc.endOfDay()
	case "week":
		sc.weekEnd(offset, time.Friday)
	case "month":
		sc.monthEnd(offset)
	case "year":
		sc.setMonthDayYear(sc.ref.Year()+offset, time.December, 31)
		sc.setDeadline(23, 59)
	default:
		return 0
	}
	return j - i + 1
}

// modified: this/next/coming/following/last + week, weekend, month, weekday,
// or a day part ("this morning").
func (sc *cueScanner) modified(i int) int {
	ws := sc.ws
	mod := ws[i].lower
	next := wordAt(ws, i+1)
	if mod == "last" {
		switch {
		case next == "week", next == "month", next == "year", next == "night", next == "time", weekdayOf(next) >= 0:
			sc.c.past = true
			if next == "night" {
				sc.setDate(sc.ref, -1)
			} else {
				sc.setDate(sc.ref, -7)
			}
			return 2
		}
		return 0
	}
	offset := 0
	if mod != "this" {
		offset = 1
	}
	switch {
	case next == "week":
		sc.weekEnd(offset, time.Friday)
		return 2
	case next == "weekend":
		sc.weekEnd(offset, time.Sunday)
		return 2
	case next == "month":
		sc.monthEnd(offset)
		return 2
	case mod == "this" && dayPartHour(next) > 0:
		sc.setDate(sc.ref, 0)
		sc.setPart(dayPartHour(next))
		return 2
	case weekdayOf(next) >= 0:
		wd := time.Weekday(weekdayOf(next))
		switch mod {
		case "this", "coming":
			sc.resolveWeekday(wd, mod == "this", false)
		default:
			sc.resolveWeekday(wd, false, true)
		}
		return 2 + sc.bareClock(i+2)
	}
	return 0
}

// bareClock reads a clock said right after a day without "at", when its
// minutes show it is one ("next thursday seven thirty", "friday 2:30"),
// and returns the words it took.
func (sc *cueScanner) bareClock(j int) int {
	h, m, mer, k := clockAt(sc.ws, j, false)
	if k == 0 || sc.c.clock || mer == 0 && m == 0 && !strings.Contains(wordAt(sc.ws, j), ":") {
		return 0
	}
	sc.setClock(h, m, mer)
	return k
}

// in: "in two hours", "in the next 30 minutes", "in an hour", "in half an
// hour", "within the hour", "in three days", "in the morning".
func (sc *cueScanner) in(i int) int {
	ws := sc.ws
	j := i + 1
	if hasSeq(ws, j, "a", "bit") || hasSeq(ws, j, "a", "sec") || hasSeq(ws, j, "a", "second") || hasSeq(ws, j, "a", "moment") || hasSeq(ws, j, "a", "minute") {
		// "i'll text you the address in a bit": soon, as "asap" is
		sc.setRel(asapOffset)
		return 3
	}
	if hasSeq(ws, j, "the", "next") {
		j += 2
	} else if wordAt(ws, j) == "the" {
		if h := dayPartHour(wordAt(ws, j+1)); h > 0 {
			sc.setPart(h)
			return 3
		}
		if wordAt(ws, j+1) == "hour" {
			sc.setRel(time.Hour)
			return 3
		}
		if ws[i].lower == "within" && wordAt(ws, j+1) == "week" {
			// "within the week": by its end, as "this week"
			sc.weekEnd(0, time.Friday)
			return 3
		}
		if ws[i].lower == "within" && wordAt(ws, j+1) == "month" {
			sc.monthEnd(0)
			return 3
		}
		return 0
	}
	if hasSeq(ws, j, "half", "an", "hour") {
		sc.setRel(30 * time.Minute)
		return j + 3 - i
	}
	v, n := numberAt(ws, j)
	if n == 0 {
		if wordAt(ws, j) == "a" || wordAt(ws, j) == "an" {
			v, n = 1, 1
		} else if unitOf(wordAt(ws, j)) != 0 && j > i+1 {
			v, n = 1, 0 // "in the next hour"
		} else {
			return 0
		}
	}
	j += n
	unit := unitOf(wordAt(ws, j))
	if unit == 0 {
		return 0
	}
	j++
	if hasSeq(ws, j, "and", "a", "half") {
		v += 0.5
		j += 3
	}
	sc.applyOffset(v, unit)
	return j - i
}

// ago: "two days ago", "an hour ago"; from now: "a week from now".
func (sc *cueScanner) ago(i int) int {
	ws := sc.ws
	v, n := numberAt(ws, i)
	if n == 0 {
		if w := wordAt(ws, i); w != "a" && w != "an" {
			return 0
		}
		v, n = 1, 1
	}
	unit := unitOf(wordAt(ws, i+n))
	if unit == 0 {
		return 0
	}
	switch {
	case wordAt(ws, i+n+1) == "ago":
		sc.c.past = true
		sc.applyOffset(-v, unit)
		return n + 2
	case hasSeq(ws, i+n+1, "from", "now"):
		sc.applyOffset(v, unit)
		return n + 3
	case (unit == unitWeek || unit == 2*unitWeek) && (wordAt(ws, i+n+1) == "today" || wordAt(ws, i+n+1) == "tomorrow"):
		// British "a week today", "a fortnight tomorrow"
		days := 0
		if wordAt(ws, i+n+1) == "tomorrow" {
			days = 1
		}
		sc.setDate(sc.ref, days+int(v*float64(unit/unitDay)))
		return n + 2
	case wordAt(ws, i+n+1) == "from" && unit >= unitDay:
		// "a week from Friday", "two weeks from tomorrow"
		base := wordAt(ws, i+n+2)
		days := -1
		switch {
		case base == "today":
			days = 0
		case base == "tomorrow":
			days = 1
		case weekdayOf(base) >= 0:
			days = weekdayDistance(sc.ref.Weekday(), time.Weekday(weekdayOf(base)), false)
		}
		if days < 0 || unit == unitMonth {
			return 0
		}
		sc.setDate(sc.ref, days+int(v*float64(unit/unitDay)))
		return n + 3
	}
	return 0
}

// Units of "in N <unit>", in minutes; days and longer give dates.
const (
	unitMinute = 1
	unitHour   = 60
	unitDay    = 24 * 60
	unitWeek   = 7 * unitDay
	unitMonth  = 30 * unitDay
)

func unitOf(w string) int {
	switch w {
	case "minute", "minutes", "min", "mins":
		return unitMinute
	case "hour", "hours", "hr", "hrs":
		return unitHour
	case "day", "days":
		return unitDay
	case "week", "weeks", "weekend", "weekends":
		return unitWeek
	case "fortnight", "fortnights":
		return 2 * unitWeek
	case "month", "months":
		return unitMonth
	}
	return 0
}

func (sc *cueScanner) applyOffset(v float64, unit int) {
	switch unit {
	case unitMinute, unitHour:
		sc.setRel(time.Duration(v * float64(unit) * float64(time.Minute)))
	case unitMonth:
		t := time.Date(sc.ref.Year(), sc.ref.Month()+time.Month(int(v)), sc.ref.Day(), 0, 0, 0, 0, sc.ref.Location())
		sc.setDate(t, 0)
	default:
		sc.setDate(sc.ref, int(v*float64(unit/unitDay)))
	}
}

// clockAfter: a preposition followed by a clock ("at 3", "by six", "around
// 10:30"), or a range ("between 8 and 10", "from 3 to 5").
func (sc *cueScanner) clockAfter(i int) int {
	ws := sc.ws
	j := i + 1
	if wordAt(ws, j) == "around" || wordAt(ws, j) == "about" {
		j++
	}
	// "from ten to five" is a range, "at ten to five" a clock
	if n := sc.pastTo(j, ws[i].lower != "from" && ws[i].lower != "between"); n > 0 {
		return j - i + n
	}
	h, m, mer, n := clockAt(ws, j, false)
	if n == 0 {
		return 0
	}
	j += n
	if w := ws[i].lower; w == "between" || w == "from" {
		sep := wordAt(ws, j)
		if sep == "and" || sep == "to" || sep == "till" || sep == "until" {
			if h2, m2, mer2, n2 := clockAt(ws, j+1, false); n2 > 0 {
				if mer == 0 {
					mer = mer2
				}
				start, end := h*60+m, h2*60+m2
				if mer2 == 'p' && h2 < 12 {
					end += 12 * 60
				}
				if mer == 'p' && h < 12 {
					start += 12 * 60
				}
				if end < start && end+12*60 > start {
					end += 12 * 60
				}
				if end > start {
					sc.c.rangeMin = end - start
				}
				j += 1 + n2
			}
		}
	}
	sc.setClock(h, m, mer)
	return j - i
}

// pastTo: "half past 3", "quarter past six", "a quarter to 4", "twenty
// past nine", "ten to five", "five after six". A bare number before "to"
// is a clock only after a preposition (prep): "at ten to five", not "two to
// three people".
func (sc *cueScanner) pastTo(i int, prep bool) int {
	ws := sc.ws
	var mins, k int
	switch w := wordAt(ws, i); w {
	case "half":
		mins, k = 30, 1
	case "quarter":
		mins, k = 15, 1
	case "a":
		if wordAt(ws, i+1) != "quarter" {
			return 0
		}
		mins, k = 15, 2
	default:
		v, n := cardinalAt(ws, i)
		if n == 0 || v < 1 || v > 29 || ws[i+n-1].punct != 0 {
			return 0
		}
		mins, k = v, n
		if w := wordAt(ws, i+k); w == "minutes" || w == "mins" {
			k++
		}
		if rel := wordAt(ws, i+k); rel != "past" && rel != "after" && (rel != "to" || !prep) {
			return 0
		}
	}
	rel := wordAt(ws, i+k)
	if rel != "past" && rel != "to" && rel != "after" {
		// British "half ten" is half past ten
		if h, _, mer, n := clockAt(ws, i+1, false); mins == 30 && k == 1 && n == 1 && (i == 0 || ws[i-1].lower == "at" || inSet(clockLeads, ws[i-1].lower) || inSet(deadlineLeads, ws[i-1].lower)) {
			sc.setClock(h, 30, mer)
			return 1 + n
		}
		return 0
	}
	if ws[i+k-1].punct != 0 {
		return 0
	}
	h, hm, mer, n := hourAt(ws, i+k+1)
	if n == 0 || hm != 0 {
		return 0
	}
	if rel == "to" {
		h, mins = h-1, 60-mins
		if h == 0 {
			h = 12
		}
	}
	sc.setClock(h, mins, mer)
	return k + 1 + n
}

// hourAt is the hour a "past" or "to" clock counts from: a clock, "noon" or
// "midnight".
func hourAt(ws []cword, i int) (h, m int, mer byte, n int) {
	switch wordAt(ws, i) {
	case "noon", "midday":
		return 12, 0, 'p', 1
	case "midnight":
		return 12, 0, 'a', 1
	}
	return clockAt(ws, i, false)
}

// clockAt reads a clock time at ws[i]: "3", "3:30", "15:30", "3pm",
// "3:30pm", "3 pm", "six", "ten thirty", "nine oh five", "9 30", "3 o'clock".
// With needMarker, a clock without am/pm/o'clock or a colon is not one ("3
// reports", "9 30 people").
func clockAt(ws []cword, i int, needMarker bool) (h, m int, mer byte, n int) {
	w := wordAt(ws, i)
	if w == "" {
		return 0, 0, 0, 0
	}
	colon := false
	switch {
	case (strings.HasSuffix(w, "am") || strings.HasSuffix(w, "pm")) && len(w) > 2 && isDigitsOrColon(w[:len(w)-2]):
		hh, mm, ok := parseHM(w[:len(w)-2])
		if !ok || hh < 1 || hh > 12 {
			return 0, 0, 0, 0
		}
		return hh, mm, w[len(w)-2], 1
	case isDigitsOrColon(w):
		hh, mm, ok := parseHM(w)
		if !ok {
			return 0, 0, 0, 0
		}
		h, m, n = hh, mm, 1
		colon = strings.ContainsAny(w, ":.")
		if !colon && h > 12 {
			return 0, 0, 0, 0
		}
	default:
		hh, ok := hourWords[w]
		if !ok {
			return 0, 0, 0, 0
		}
		h, n = hh, 1
	}
	if !colon && ws[i].punct == 0 {
		// the spoken minutes: "9 30", "nine thirty", "ten oh five"
		if mm, k := minutesAt(ws, i+1); k > 0 {
			m, n = mm, 1+k
		}
	}
	if ws[i+n-1].punct == 0 {
		switch wordAt(ws, i+n) {
		case "am", "pm":
			if h > 12 {
				return 0, 0, 0, 0
			}
			return h, m, wordAt(ws, i+n)[0], n + 1
		case "o'clock", "oclock":
			return h, m, 0, n + 1
		case "noon":
			if h == 12 && m == 0 {
				return 12, 0, 'p', n + 1
			}
		case "midnight":
			if h == 12 && m == 0 {
				return 11, 59, 'p', n + 1 // as "midnight" alone: the day's last minute
			}
		case "percent", "degrees", "dollars", "bucks", "people", "times", "of", "years", "minutes", "hours", "days", "weeks", "months", "miles", "pounds", "euros", "k", "minute", "hour", "day", "week", "month", "year", "kids", "items", "things", "pages", "points":
			return 0, 0, 0, 0
		}
	}
	// "9 30 in the morning": the day part marks it as a clock
	dayPart := hasSeq(ws, i+n, "in", "the") && dayPartHour(wordAt(ws, i+n+2)) > 0
	if needMarker && !colon && !dayPart {
		return 0, 0, 0, 0
	}
	if h == 0 && !colon {
		return 0, 0, 0, 0
	}
	return h, m, 0, n
}

func isDigitsOrColon(w string) bool {
	for i := 0; i < len(w); i++ {
		if (w[i] < '0' || w[i] > '9') && w[i] != ':' && w[i] != '.' {
			return false
		}
	}
	return w != "" && w[0] != ':' && w[0] != '.'
}

// parseHM parses "3", "3:30", "15:30" and "3.30".
func parseHM(w string) (h, m int, ok bool) {
	hs, ms, hasM := strings.Cut(w, ":")
	if !hasM {
		hs, ms, hasM = strings.Cut(w, ".")
	}
	h, err := strconv.Atoi(hs)
	if err != nil || len(hs) > 2 || h > 23 {
		return 0, 0, false
	}
	if hasM {
		if len(ms) != 2 {
			return 0, 0, false
		}
		m, err = strconv.Atoi(ms)
		if err != nil || m > 59 {
			return 0, 0, false
		}
	}
	return h, m, true
}

var hourWords = map[string]int{
	"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
	"nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
}

// numberAt reads a count: digits, a number word, "a couple (of)", "a few".
func numberAt(ws []cword, i int) (float64, int) {
	w := wordAt(ws, i)
	if w == "" {
		return 0, 0
	}
	if isDigits(w) {
		v, err := strconv.Atoi(w)
		if err != nil || v > 10000 {
			return 0, 0
		}
		return float64(v), 1
	}
	if v, n := cardinalAt(ws, i); n > 0 {
		return float64(v), n
	}
	if w == "a" || w == "couple" {
		j := i
		if w == "a" {
			j++
		}
		switch wordAt(ws, j) {
		case "couple":
			if wordAt(ws, j+1) == "of" {
				return 2, j + 2 - i
			}
			return 2, j + 1 - i
		case "few":
			return 3, j + 1 - i
		}
	}
	if w == "few" {
		return 3, 1
	}
	return 0, 0
}

var countWords = map[string]float64{
	"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
	"nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20,
	"thirty": 30, "forty": 40, "forty-five": 45, "fifty": 50, "sixty": 60, "ninety": 90,
}

func weekdayOf(w string) int {
	switch w {
	case "sunday":
		return 0
	case "monday":
		return 1
	case "tuesday":
		return 2
	case "wednesday":
		return 3
	case "thursday":
		return 4
	case "friday":
		return 5
	case "saturday":
		return 6
	}
	return -1
}

var months = map[string]time.Month{
	"january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "april": 4, "may": 5, "june": 6,
	"july": 7, "august": 8, "aug": 8, "september": 9, "sept": 9, "sep": 9, "october": 10, "oct": 10,
	"november": 11, "nov": 11, "december": 12, "dec": 12,
}

// monthOf: a month name followed by a day ("March 3rd", "May 4"); a month
// alone ("in May") is no date, and "may" is usually a verb.
func monthOf(ws []cword, i int) time.Month {
	m, ok := months[ws[i].lower]
	if !ok || ws[i].punct != 0 && (ws[i].punct != '.' || len(ws[i].lower) > 4) {
		return 0 // "Nov. 30" is a date, "in May. 3 of them" is not
	}
	j := i + 1
	if wordAt(ws, j) == "the" {
		j++ // "November the 30th"
	}
	if d, _ := dayNumberAt(ws, j, true); d == 0 {
		return 0
	}
	return m
}

// monthDay: "March 3rd", "March 3", "november thirtieth", "November 30th,
// 2026".
func (sc *cueScanner) monthDay(i int, m time.Month) int {
	j := i + 1
	if wordAt(sc.ws, j) == "the" {
		j++ // "November the 30th"
	}
	d, n := dayNumberAt(sc.ws, j, true)
	j += n
	if y, ok := yearAt(sc.ws, j); ok {
		sc.setMonthDayYear(y, m, d)
		return j + 1 - i
	}
	sc.setMonthDay(m, d)
	return j - i
}

// dayMonth: "30th November", "the first of December" (after its "the"),
// "1st of Dec", "30 November 2026". A bare number before the month needs
// "of", a capital or a preposition before it ("on 3 may" but not "2 may").
func (sc *cueScanner) dayMonth(i int) int {
	ws := sc.ws
	d, n := dayNumberAt(ws, i, false)
	bare := false
	if n == 0 {
		if w := wordAt(ws, i); !isDigits(w) || len(w) > 2 {
			return 0
		}
		d, n = dayNumberAt(ws, i, true)
		bare = true
	}
	if n == 0 || ws[i+n-1].punct != 0 {
		return 0
	}
	j := i + n
	of := wordAt(ws, j) == "of"
	if of {
		j++
	}
	m, ok := months[wordAt(ws, j)]
	if !ok || ws[j-1].punct != 0 {
		return 0
	}
	if !of && !ws[j].cap && (bare || m == time.May || m == time.March) {
		if p := wordAt(ws, i-1); p != "on" && p != "by" && p != "the" && p != "until" && p != "before" && weekdayOf(p) < 0 {
			return 0
		}
	}
	j++
	if y, ok := yearAt(ws, j); ok {
		sc.setMonthDayYear(y, m, d)
		return j + 1 - i
	}
	sc.setMonthDay(m, d)
	return j - i
}

// yearAt reads a year said after a date: "2026", after an optional comma.
func yearAt(ws []cword, j int) (int, bool) {
	w := wordAt(ws, j)
	if len(w) != 4 || !isDigits(w) || ws[j-1].punct != 0 && ws[j-1].punct != ',' {
		return 0, false
	}
	y, _ := strconv.Atoi(w)
	return y, y >= 2000 && y <= 2100
}

// numberWord: a spelled number or ordinal, which may start a cue ("twenty
// past nine", "thirtieth of November").
func numberWord(w string) bool {
	if inSet(simpleNumberWords, w) {
		return true
	}
	if strings.IndexByte(w, '-') < 0 {
		return false // compounds are hyphenated
	}
	_, ok1 := compoundWord(w, unitNumbers)
	_, ok2 := compoundWord(w, unitOrdinals)
	return ok1 || ok2
}

// ordinalDate: "the 12th", "the 3rd of March", "the twelfth of May". A word
// ordinal alone ("the first batch") is a date only after "on".
func (sc *cueScanner) ordinalDate(i int) int {
	ws := sc.ws
	d, n := dayNumberAt(ws, i+1, false)
	if d == 0 {
		return 0
	}
	j := i + 1 + n
	if w := wordAt(ws, j); w == "and" || w == "to" || w == "through" || w == "till" || w == "until" {
		// "the fourteenth and fifteenth of january": the first of the days
		if d2, n2 := dayNumberAt(ws, j+1, false); d2 > d && wordAt(ws, j+1+n2) == "of" {
			if m, ok := months[wordAt(ws, j+2+n2)]; ok {
				sc.setMonthDay(m, d)
				return j + 3 + n2 - i
			}
		}
	}
	if wordAt(ws, j) == "of" {
		if m, ok := months[wordAt(ws, j+1)]; ok {
			sc.setMonthDay(m, d)
			return j + 2 - i
		}
		// "the 15th of next month", "the 3rd of this month"
		if mod := wordAt(ws, j+1); (mod == "next" || mod == "this") && wordAt(ws, j+2) == "month" {
			first := time.Date(sc.ref.Year(), sc.ref.Month(), 1, 0, 0, 0, 0, sc.ref.Location())
			if mod == "next" {
				first = first.AddDate(0, 1, 0)
			}
			sc.setMonthDayYear(first.Year(), first.Month(), d)
			return j + 3 - i
		}
	}
	digits := isDigits(strings.TrimRight(ws[i+1].lower, "stndrh"))
	prev := wordAt(ws, i-1)
	if !digits && prev != "on" && weekdayOf(prev) < 0 {
		// "by the fifteenth", "until the twentieth" are dates, "by the
		// second half" and "after the first coat" are not ("half" is a stop word
		// but a noun here)
		booked := prev == "for" && inSet(bookedWords, wordAt(ws, i-2)) // "booked for the twenty fourth"
		// "next one is the fifteenth at eight": a day named by a copula, with its hour
		named := inSet(slotCopulas, prev) && j < len(ws) && wordAt(ws, j) == "at" && ws[j-1].punct == 0
		if !inSet(ordinalDatePreps, prev) && !booked && !named || j < len(ws) && ws[j-1].punct == 0 && (!inSet(stopWords, wordAt(ws, j)) || wordAt(ws, j) == "half") {
			return 0
		}
	}
	// the next occurrence of that day of the month
	ref := sc.ref
	for k := 0; k < 12; k++ {
		first := time.Date(ref.Year(), ref.Month()+time.Month(k), 1, 0, 0, 0, 0, ref.Location())
		if d > daysIn(first) || k == 0 && d < ref.Day() {
			continue
		}
		sc.setMonthDayYear(first.Year(), first.Month(), d)
		sc.c.monthless = sc.c.date && sc.c.day == d && sc.c.mon == first.Month()
		break
	}
	return j - i
}

// bookingBefore: a booking is named in the three words before ws[i]
// ("booked it", "a table at Rosa's", "the reservation").
func bookingBefore(ws []cword, i int) bool {
	for k := i - 1; k >= 0 && k >= i-3; k-- {
		if inSet(bookingWords, ws[k].lower) {
			return true
		}
	}
	return false
}

var bookingWords = lexicon.NewSet(`booked reserved scheduled table reservation booking appointment`)

// movedVerbs before "to" and a clock give a plan its new time.
var movedVerbs = lexicon.NewSet(`moved pushed changed bumped rescheduled shifted brought delayed`)

// ordinalDatePreps before "the" and a spelled ordinal make it a day of the
// month when no noun follows.
var ordinalDatePreps = lexicon.NewSet(`by until till before after from`)

// dayNumberAt reads a day of the month: "3rd", "12th", "twelfth", "thirty
// first", or (when bare is allowed, after a month name) "3".
func dayNumberAt(ws []cword, i int, bare bool) (int, int) {
	d, n := ordinalAt(ws, i)
	if n == 0 && bare {
		if w := wordAt(ws, i); isDigits(w) && len(w) <= 2 {
			d, n = cardinalAt(ws, i)
		}
	}
	if n == 0 || d < 1 || d > 31 {
		return 0, 0
	}
	return d, n
}

// setMonthDay dates the next occurrence of month/day, today included.
func (sc *cueScanner) setMonthDay(m time.Month, d int) {
	ref := sc.ref
	y := ref.Year()
	if m < ref.Month() || m == ref.Month() && d < ref.Day() {
		y++
	}
	sc.setMonthDayYear(y, m, d)
}

func (sc *cueScanner) setMonthDayYear(y int, m time.Month, d int) {
	if d > daysIn(time.Date(y, m, 1, 0, 0, 0, 0, time.UTC)) {
		return // "February 30th"
	}
	if sc.c.date && !sc.c.fromWeekday {
		return
	}
	sc.c.date, sc.c.fromWeekday = true, false
	sc.c.y, sc.c.mon, sc.c.day = y, m, d
}

func daysIn(first time.Time) int {
	return time.Date(first.Year(), first.Month()+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// isoDate: 2026-03-14.
func (sc *cueScanner) isoDate(i int) int {
	w := sc.ws[i].lower
	if len(w) != 10 || w[4] != '-' || w[7] != '-' {
		return 0
	}
	y, e1 := strconv.Atoi(w[:4])
	m, e2 := strconv.Atoi(w[5:7])
	d, e3 := strconv.Atoi(w[8:])
	if e1 != nil || e2 != nil || e3 != nil || m < 1 || m > 12 || d < 1 {
		return 0
	}
	sc.setMonthDayYear(y, time.Month(m), d)
	return 1
}

// resolved is a cue turned into an instant.
type resolved struct {
	at       time.Time // UTC
	clock    bool      // a time of day was said (clock or day part)
	rangeMin int
}

// resolve turns the cue into a UTC instant, relative to start (the
// conversation's start) in loc. ok is false when the cue names no time.
func (c timeCue) resolve(start time.Time, loc *time.Location) (resolved, bool) {
	if c.recurring && !c.date && !c.clock && !c.rel {
		return resolved{}, false
	}
	if c.rel {
		return resolved{at: start.Add(c.offset).UTC(), clock: true}, true
	}
	if !c.date && !c.clock && c.part == 0 {
		return resolved{}, false
	}
	ref := start.In(loc)
	y, m, d := ref.Year(), ref.Month(), ref.Day()
	if c.date {
		y, m, d = c.y, c.mon, c.day
	}
	if c.dayBefore && c.date && !c.clock && c.part == 0 {
		d--
	}
	h, mi := 23, 59
	switch {
	case c.clock:
		h, mi = c.hour, c.min
		switch {
		case c.meridiem == 'p' && h < 12:
			h += 12
		case c.meridiem == 'a' && h == 12:
			h = 0
		case c.meridiem == 0 && h >= 1 && h < 12:
			switch {
			case c.pmHint || c.part == afternoonHour || c.part == eveningHour:
				h += 12
			case c.amHint || c.part == morningHour:
			case h <= 6:
				h += 12
			}
		}
	case c.part > 0:
		h, mi = c.part, 0
	case c.deadline:
		h, mi = c.defH, c.defMin
	}
	if !c.date && c.clock && c.meridiem == 0 && !c.pmHint && !c.amHint && c.part == 0 && c.hour >= 1 && c.hour <= 11 && c.zone == "" {
		// "I'll come by around seven" said at six in the evening: this
		// evening's seven, once the morning's has passed and the evening's
		// is at most a few hours away
		am := time.Date(y, m, d, c.hour, mi, 0, 0, loc)
		pm := time.Date(y, m, d, c.hour+12, mi, 0, 0, loc)
		if am.Before(ref) && pm.After(ref) && pm.Sub(ref) <= soonHours*time.Hour {
			return resolved{at: pm.UTC(), clock: true, rangeMin: c.rangeMin}, true
		}
	}
	t := time.Date(y, m, d, h, mi, 0, 0, loc)
	if c.clock && c.zone != "" {
		t = inZone(y, m, d, h, mi, c.zone, loc)
	}
	if !c.date && t.Before(ref) {
		t = t.AddDate(0, 0, 1)
	}
	return resolved{at: t.UTC(), clock: c.clock || c.part > 0, rangeMin: c.rangeMin}, true
}

// bookedWords before "for" make the ordinal after it a date: "booked for
// the twenty fourth", "moved for the third".
var bookedWords = lexicon.NewSet(`booked scheduled set moved pushed arranged confirmed reserved planned`)

// holidays are dates by name: "thanksgiving is at my place this year",
// "christmas eve", "new year's eve". Said before a noun they name a thing,
// not a day ("christmas lights", "christmas shopping"), unless the noun is
// a meal or a part of the day.
var holidays = lexicon.NewSet(`thanksgiving christmas halloween new`)

var holidayNext = lexicon.NewSet(`day eve dinner lunch morning evening night is at on this we i so and or
	with weekend break`)

// holiday reads a holiday at ws[i] as its next date (this year's, or next
// year's once passed): Thanksgiving the fourth Thursday of November.
func (sc *cueScanner) holiday(i int) int {
	ws := sc.ws
	w, n := ws[i].lower, 1
	var mon time.Month
	var day int
	y := sc.ref.Year()
	switch {
	case w == "new":
		if !hasSeq(ws, i, "new", "year's", "eve") {
			return 0
		}
		mon, day, n = time.December, 31, 3
	case w == "christmas" && wordAt(ws, i+1) == "eve":
		mon, day, n = time.December, 24, 2
	case w == "christmas":
		mon, day = time.December, 25
	case w == "halloween":
		mon, day = time.October, 31
	case w == "thanksgiving":
		mon, day = time.November, fourthThursday(y)
	}
	if next := wordAt(ws, i+n); next != "" && ws[i+n-1].punct == 0 && !inSet(holidayNext, next) {
		return 0
	}
	at := time.Date(y, mon, day, 0, 0, 0, 0, sc.ref.Location())
	if at.Before(time.Date(sc.ref.Year(), sc.ref.Month(), sc.ref.Day(), 0, 0, 0, 0, sc.ref.Location())) {
		y++
		if w == "thanksgiving" {
			day = fourthThursday(y)
		}
	}
	sc.setMonthDayYear(y, mon, day)
	sc.c.fromWeekday = true // a weekday or date said with it is more precise
	return n
}

// fourthThursday is the day of November's fourth Thursday in year y.
func fourthThursday(y int) int {
	first := time.Date(y, time.November, 1, 0, 0, 0, 0, time.UTC).Weekday()
	return 1 + (int(time.Thursday)-int(first)+7)%7 + 21
}

package builtin

import (
	"strings"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/pipeline/lexicon"
)

// Settled slots. People name a plan once and then settle its time in words
// that no longer name it: "The next opening is November 16th at 1:45." "I'll
// take it."; "Is next week still Wednesday at six?" "Yes, same time."; "we'll
// talk again next Thursday at one". And a plan's day and hour are often said
// apart: "I can come and install the charger on Friday December 4th. I'll be
// there at 8."; "the warehouse count is on Monday" "from nine till about
// one". The rules below read the time of a plan across those boundaries.

// laterClock completes a plan dated without a time of day from the clause's
// own "same time" (the hour the conversation started, as people meeting
// again say it), or the first time of day said later in the same utterance,
// or in the next one when it names no other date. It reports whether c got
// a clock.
func (dl *dialogue) laterClock(i, a, b int, c *timeCue, tm timing) bool {
	u := &dl.utts[i]
	for j := a; j < b; j++ {
		if inSet(deadlineWords, u.words[j].lower) {
			return false // "the final guest count by December 1st" is no plan
		}
	}
	// a day part said with the plan ("saturday night") gives way to the
	// clock said later, and keeps its half of the day
	dayPart := c.part
	adopt := func(v *utterance, a, e int) bool {
		ws := v.words
		if v.isUser && userCalls(ws, a, e) {
			return false // "Your glasses will be ready on Tuesday." "I'll come by Tuesday at five."
		}
		used := make([]bool, len(ws))
		cc := scanCues(ws, a, e, tm.ref, used)
		if !cc.found || cc.past || cc.recurring || cc.rel || !cueEndsPhrase(ws, used, a, e) || firstPersonTask(ws, a, e) {
			return false
		}
		if cc.date && (cc.y != c.y || cc.mon != c.mon || cc.day != c.day) {
			return false
		}
		if !cc.clock && cc.part == 0 || dayPart != 0 && !cc.clock {
			return false
		}
		c.clock, c.hour, c.min, c.meridiem, c.part, c.zone = cc.clock, cc.hour, cc.min, cc.meridiem, cc.part, cc.zone
		if dayPart == afternoonHour || dayPart == eveningHour {
			c.pmHint = true // "saturday night" … "from six thirty"
		} else if dayPart == morningHour {
			c.amHint = true
		}
		c.amHint, c.pmHint, c.rangeMin = c.amHint || cc.amHint, c.pmHint || cc.pmHint, cc.rangeMin
		return true
	}
	for _, cl := range u.clauses {
		if cl[0] >= b && adopt(u, cl[0], cl[1]) {
			// "thursday same time which is 8 30": the clock said wins
			return true
		}
	}
	if sameTime(u.words, 0, len(u.words)) {
		c.clock, c.hour, c.min, c.meridiem = true, tm.ref.Hour(), tm.ref.Minute(), 'a'
		if c.hour >= 12 {
			c.meridiem = 'p'
		}
		return true
	}
	// the next turn, or the one after a question about the plan: "the
	// warehouse count is on Monday" "do you need me there" "from nine till
	// about one"
	for j := i + 1; j < len(dl.utts) && j <= i+2; j++ {
		v := &dl.utts[j]
		if h, ok := answeredHour(v.words); ok && v.speaker != u.speaker && (u.question || askedAloud(u.words)) {
			// "are we still on for breakfast tomorrow" "yes nine at the usual place"
			c.clock, c.hour, c.min, c.meridiem = true, h, 0, 0
			return true
		}
		for _, cl := range v.clauses {
			if adopt(v, cl[0], cl[1]) {
				return true
			}
			if scanCues(v.words, cl[0], cl[1], tm.ref, nil).found {
				break // "yes, from eight": the first time said answers
			}
		}
		if !v.question && !askedAloud(v.words) {
			break
		}
	}
	return false
}

// earlierDate dates a plan said with its hour alone from the day said
// just before, in an earlier clause or up to two turns back: "Our
// anniversary is on the twelfth." … "I booked a table at Rosa's for seven
// thirty." A deadline, a past day, a habit or a task's day is not taken.
func (dl *dialogue) earlierDate(i, a int, c *timeCue, tm timing) {
	for j := i; j >= 0 && dl.utts[j].seg >= dl.utts[i].seg-2; j-- {
		v := &dl.utts[j]
		for n := len(v.clauses) - 1; n >= 0; n-- {
			cl := v.clauses[n]
			if j == i && cl[0] >= a {
				continue
			}
			cc := scanCues(v.words, cl[0], cl[1], tm.ref, nil)
			if !cc.found || !cc.date && !cc.clock && !cc.past {
				continue // "Ten years!"
			}
			if cc.clock && !cc.date && !cc.past && !cc.rel && !cc.deadline && !cc.recurring {
				// "two candidates on Thursday: one at 10 and one at 2" … "I
				// have a dentist at 2": hours said after a day are on it
				continue
			}
			if !cc.date || cc.past || cc.recurring || cc.rel || cc.deadline || cc.clock || indexInt(v.tasks, cl[0]) >= 0 {
				return // the last time said is not a plain day
			}
			for k := cl[0]; k < cl[1]; k++ {
				if inSet(deadlineWords, v.words[k].lower) || inSet(pastWords, v.words[k].lower) {
					return
				}
			}
			c.date, c.y, c.mon, c.day = true, cc.y, cc.mon, cc.day
			return
		}
	}
}

// cueEndsPhrase: the last cue word of ws[a:e] ends the clause, its
// sentence, or is followed by a function word ("at 8, and", "at five.",
// "from nine till about one"), so "we're at one hundred and twelve" is a
// count, not a clock.
func cueEndsPhrase(ws []cword, used []bool, a, e int) bool {
	last := -1
	for j := a; j < e; j++ {
		if used[j] {
			last = j
		}
	}
	if last < 0 {
		return false
	}
	if last+1 >= e || ws[last].punct != 0 {
		return true
	}
	n := ws[last+1].lower
	return inSet(stopWords, n) && !numberWord(n)
}

// firstPersonTask: "I'll pick them up Wednesday after work", "we need to
// send it Monday at 9", "can you text them today?": the speakers' own deed,
// dated, is a task; only going to, meeting, seeing or talking makes it a
// plan.
func firstPersonTask(ws []cword, a, b int) bool {
	for j := a; j < b; j++ {
		w := ws[j].lower
		k := -1
		switch {
		case w == "i'll" || w == "we'll" || w == "i'm" || w == "we're" || w == "you'll" || w == "you're":
			k = j + 1
		case (w == "i" || w == "we" || w == "you") && (wordAt(ws, j+1) == "will" || wordAt(ws, j+1) == "can" || wordAt(ws, j+1) == "need" || wordAt(ws, j+1) == "have"):
			k = j + 2
		case (w == "can" || w == "could" || w == "will" || w == "would") && wordAt(ws, j+1) == "you":
			k = j + 2 // "can you text them today?"
		}
		if k < 0 {
			continue
		}
		for k < b && (ws[k].lower == "to" || ws[k].lower == "going" || ws[k].lower == "gonna" || isFiller(ws[k].lower)) {
			k++
		}
		v := wordAt(ws, k)
		if v == "" || inSet(attendVerbs, v) || inSet(talkVerbs, v) || inSet(visitVerbs, v) || inSet(hostVerbs, v) ||
			v == "be" || v == "see" || v == "free" || v == "available" || v == "there" || weekdayOf(v) >= 0 || inSet(cueStarts, v) {
			continue
		}
		if (v == "do" || v == "offer") && k+1 < b && startsCue(ws, k+1) {
			continue // "we can do monday the twenty third at seven fifteen": a slot offered
		}
		return true
	}
	return false
}

// askedAloud: a question said without a question mark, as a live
// recogniser writes it: "do you need me there", "what time".
func askedAloud(ws []cword) bool {
	k := 0
	for k < len(ws) && k < 2 && inSet(agreeWords, ws[k].lower) {
		k++ // "yes what time"
	}
	if w := wordAt(ws, k); (w == "what" || w == "which") && (wordAt(ws, k+1) == "time" || wordAt(ws, k+1) == "day") {
		return true
	}
	return len(ws) > 1 && ws[0].is(wcQuestionAux) && (ws[1].is(wcSubjectPronoun) || ws[1].lower == "we" || ws[1].lower == "i")
}

// userCalls: in ws[a:b] the user says they will come by ("I'll come
// around six", "I can swing by Tuesday"), an errand of theirs.
func userCalls(ws []cword, a, b int) bool {
	for j := a; j < b; j++ {
		if ws[j].is(wcVisitVerb) && userGoes(ws, a, j) {
			return true
		}
	}
	return false
}

// sameTime: "same time", said of a plan that repeats one under way.
func sameTime(ws []cword, a, b int) bool {
	for j := a; j+1 < b; j++ {
		if ws[j].lower == "same" && ws[j+1].lower == "time" {
			return true
		}
	}
	return false
}

// deadlineWords put a time as a limit, not an appointment: "by Friday at
// 2", "due Monday at noon", "before 9 on Thursday".
var deadlineWords = lexicon.NewSet(`by before due until till deadline latest`)

// talkVerbs name a call or a meeting when said of meeting again: "we'll
// talk again next Thursday at one".
var talkVerbs = lexicon.NewSet(`talk speak chat meet catch regroup reconvene sync`)

// slotIn reads a settled slot in clause ws[a:b] of utterance i: a date and
// a time of day in the future, not a deadline nor a task's due, not past,
// not someone else's plan, and when asked or proposed, accepted by the
// next speaker. It needs a title (slotTitle).
func (dl *dialogue) slotIn(i int, ws []cword, a, b int, tm timing) (appliance.Event, bool) {
	u := &dl.utts[i]
	if t := indexInt(u.tasks, a); t >= 0 && !inSet(attendVerbs, u.taskVerbs[t]) && !inSet(talkVerbs, u.taskVerbs[t]) {
		return appliance.Event{}, false
	}
	c := scanCues(ws, a, b, tm.ref, nil)
	dl.saidMonth(i, a, &c, tm)
	if indexInt(u.tasks, a) >= 0 && !c.clock {
		// "i'll book the restaurant this afternoon": when to book, not the plan
		return appliance.Event{}, false
	}
	if !c.found || !c.date || c.past || c.recurring || c.rel || c.deadline && !c.clock || usually(ws, a, b) {
		// "this week the dentist is tuesday at nine": a week with a day and an hour is no deadline
		return appliance.Event{}, false
	}
	for j := a; j < b; j++ {
		if w := ws[j].lower; inSet(pastWords, w) && !movedAt(ws, j) || inSet(deadlineWords, w) && !arrival(ws, j) || gratitude(ws, j) {
			return appliance.Event{}, false
		}
	}
	if firstPersonTask(ws, a, b) {
		return appliance.Event{}, false
	}
	if u.isUser && userCalls(ws, a, b) {
		return appliance.Event{}, false // "I'll come by Tuesday at five then"
	}
	if !c.clock && !dl.laterClock(i, a, b, &c, tm) && c.part == 0 {
		return appliance.Event{}, false
	}
	if c.clock && c.meridiem == 0 && c.part == 0 && !c.amHint && c.hour >= 7 && c.hour <= 11 && eveningSlot(ws, a, b) {
		c.meridiem = 'p' // "a table for two on Saturday at eight thirty"
	}
	r, ok := c.resolve(tm.start, tm.loc)
	if !ok || r.at.Before(tm.start) {
		return appliance.Event{}, false
	}
	if otherPeoplesPlan(ws, a, b) && !(reportedSlot(ws, a, b) && dl.userKnown && dl.agreed(i)) || openingHours(ws, a, b) || broadcast(ws, a, b) || dl.wishedWell(i) {
		// "he said friday at ten instead" "fine friday at ten": a slot
		// relayed from someone and taken by the user is the user's
		return appliance.Event{}, false
	}
	if dl.userKnown && !u.isUser && tellersOwn(ws, a, b) && !dl.agreed(i) {
		return appliance.Event{}, false // "i'm going to the gym at six tomorrow" "nice"
	}
	if dl.proposal(i, ws, a, b) && !dl.agreed(i) {
		return appliance.Event{}, false
	}
	title, ok := dl.slotTitle(i, ws, a, b)
	if !ok {
		return appliance.Event{}, false
	}
	if c.clock && c.meridiem == 0 && c.part == 0 && !c.amHint && c.hour >= 7 && c.hour <= 11 && eveningTitle(title) {
		// "are we doing the pub quiz again" … "next one is the fifteenth at eight"
		c.meridiem = 'p'
		if r, ok = c.resolve(tm.start, tm.loc); !ok {
			return appliance.Event{}, false
		}
	}
	dur := eventDuration(ws, a, b)
	if dur == 0 {
		dur = r.rangeMin
	}
	if dur <= 0 {
		dur = appliance.DefaultEventMinutes
	}
	return appliance.Event{
		Title:       title,
		Description: eventDescription(u, a, b),
		Start:       r.at,
		Duration:    min(dur, appliance.MaxEventMinutes),
	}, true
}

// slotTitle names a settled slot, first found: a call when the clause
// says to talk again; the plan named in the clause or up to four
// utterances before ("We need to move your appointment on Friday." …
// "Monday the 23rd at quarter to ten?"), or the professional named there;
// the event put on or the table asked for; who or what is booked; what the
// clause is about; and for the meeting under way said again ("I'll see you
// again on Thursday", "same time next Tuesday?"), Appointment. No title, no
// slot.
func (dl *dialogue) slotTitle(i int, ws []cword, a, b int) (string, bool) {
	for j := a; j < b; j++ {
		if inSet(talkVerbs, ws[j].lower) && (wordAt(ws, j+1) == "again" || j > a && ws[j-1].lower == "let's") {
			return "Call", true
		}
	}
	if k, visit := eventTrigger(ws, a, b, dl.utts[i].isUser); k >= 0 && !visit {
		return dl.eventTitle(i, ws, a, k, false), true
	}
	if ws[a].lower == "and" && coordinatedDate(ws, a) {
		// "… and parents evening is thursday at six"
		var np []string
		for j := a + 1; j < b && ws[j].lower != "is" && ws[j].lower != "are"; j++ {
			if !ws[j].is(wcDeterminer) {
				np = append(np, ws[j].text)
			}
		}
		if len(np) > 0 {
			return titleCase(np), true
		}
	}
	// the clauses before this one in the same utterance ("I've put you
	// down with our mortgage advisor, Mr Patel, on the 8th…"), then the
	// utterances before
	for j := i; j >= 0 && j >= i-4; j-- {
		pw := dl.utts[j].words
		if j == i {
			if len(subjectThing(ws, a, b)) > 0 || ws[a].lower == "and" && coordinatedDate(ws, a) {
				continue // "… and parents evening is thursday at six" names its own
			}
			pw = ws[:a]
		}
		if k, visit := eventTrigger(pw, 0, len(pw), dl.utts[j].isUser); k >= 0 && !visit {
			return dl.eventTitle(j, pw, 0, k, false), true
		} else if k > 0 && j < i {
			// "the plumber can't come tomorrow anymore" … "he said friday
			// at ten instead": the tradesperson's visit, moved
			for m := 0; m < k; m++ {
				if inSet(tradesPeople, pw[m].lower) && !inSet(vagueVisitors, pw[m].lower) {
					return titleCase([]string{pw[m].text, "visit"}), true
				}
			}
		}
		if j == i {
			pw = ws[:b] // "we got you in with Dr Lee on the 9th at 11:45"
		}
		for k, w := range pw {
			if inSet(professionals, w.lower) {
				if k+1 < len(pw) && pw[k+1].cap && pw[k].punct == 0 {
					return "Appointment with " + pw[k].text + " " + pw[k+1].text, true
				}
				np := []string{pw[k].text, "appointment"}
				if k > 0 && pw[k-1].punct == 0 && titleModifier(pw[k-1]) && !inSet(stopWords, pw[k-1].lower) {
					np = append([]string{pw[k-1].text}, np...) // "mortgage advisor"
				}
				return titleCase(np), true
			}
		}
		if j == i-1 && !dl.utts[j].isUser && dl.utts[i].isUser && sameTime(pw, 0, len(pw)) {
			// "so same time next week" "yes thursday at five works": the
			// meeting under way, again, on the day the user names
			return "Appointment", true
		}
	}
	if np := hostedThing(ws, a, b); len(np) > 0 {
		return titleCase(np), true
	}
	if np := bookedThing(ws, a, b); len(np) > 0 {
		return titleCase(np), true
	}
	if np := subjectThing(ws, a, b); len(np) > 0 {
		return titleCase(np), true
	}
	if np := placeGoneTo(ws, a, b); len(np) > 0 {
		// "we're going to the theatre on Friday at 7:30"
		return titleCase(np), true
	}
	if np := namedEvening(ws, a, b); len(np) > 0 {
		// "don't forget parents evening thursday at six"
		return titleCase(np), true
	}
	if np := purposeThing(ws, a, b); len(np) > 0 {
		// "we can fit you in next wednesday at quarter past four for the filling"
		return titleCase(np), true
	}
	if hasSeq(ws, a, "your", "next", "one") || hasWord(ws, a, b, "next") && hasWord(ws, a, b, "one") && hasWord(ws, a, b, "your") {
		return "Appointment", true // "so your next one is Tuesday January 12th at 9"
	}
	if np := withWhom(ws, a, b); len(np) > 0 {
		// "can you cover the two o'clock with the auditors tomorrow"
		return titleCase(append([]string{"meeting", "with"}, np...)), true
	}
	if dl.utts[i].isUser && i > 0 && !dl.utts[i-1].isUser && offersSlots(dl.utts[i-1].words) {
		return "Appointment", true // "I have Thursday at 11:15 or Friday at 2." "Thursday at 11:15, please."
	}
	if hasWord(ws, a, b, "confirmed") || hasWord(ws, a, b, "booked") || hasWord(ws, a, b, "scheduled") {
		return "Appointment", true // "so that's confirmed for the fifth at eleven"
	}
	if seeAgain(ws, a, b) || sameTime(ws, a, b) || dl.utts[i].question || hasWord(ws, a, b, "again") {
		// "I'll see you again on Thursday", "same time next Tuesday?",
		// "is next week still Wednesday at six?" answered yes: the meeting
		// under way, again
		return "Appointment", true
	}
	return "", false
}

// subjectThing is the noun phrase a dated clause is about: the thing
// before "is" ("the warehouse count is on Monday", "first shift is December
// 12th at nine", "a planned outage will affect your street on Thursday"),
// or someone who comes to do a job ("an adjuster can see the car on
// Monday", a "visit"). Nil when the subject is a pronoun or nothing.
func subjectThing(ws []cword, a, b int) []string {
	for j := a + 1; j < b; j++ {
		if !inSet(slotCopulas, ws[j].lower) && !inSet(slotModals, ws[j].lower) {
			continue
		}
		s := j
		for s > a && j-s < 3 && ws[s-1].punct == 0 && (titleModifier(ws[s-1]) || namedDayPart(ws, a, s-1)) && !inSet(firstPerson, ws[s-1].lower) &&
			!inSet(thirdPerson, ws[s-1].lower) && !ws[s-1].is(wcSubjectPronoun) && weekdayOf(ws[s-1].lower) < 0 {
			s--
		}
		if s == j {
			continue
		}
		np := make([]string, 0, j-s+1)
		for m := s; m < j; m++ {
			np = append(np, ws[m].text)
		}
		head := strings.ToLower(np[len(np)-1])
		verb := wordAt(ws, j+1)
		switch {
		case inSet(slotModals, ws[j].lower) && inSet(jobVerbs, verb):
			return append(np, "visit")
		case !inSet(slotCopulas, ws[j].lower):
			continue
		case inSet(professionals, head) && !inSet(tradesPeople, head):
			// "the dentist is tuesday at nine": the user goes to them
			return append(np, "appointment")
		case inSet(tradesPeople, head):
			return append(np, "visit")
		case inSet(openingNouns, head):
			return []string{"appointment"} // "the next opening is November 16th at 1:45"
		}
		return np
	}
	return nil
}

// openingNouns offer a free time with a provider: taken, it is an
// appointment.
var openingNouns = lexicon.NewSet(`opening slot availability appointment spot`)

// slotModals open what someone can or will do: "an adjuster can see the
// car", "the fitter will install it".
var slotModals = lexicon.NewSet(`can will could 'll`)

// jobVerbs are what someone comes to do at the user's.
var jobVerbs = lexicon.NewSet(`come see inspect check look fix repair install replace service visit assess measure deliver
	collect pick`)

// bookedThing: "book an engineer", "schedule the chimney sweep", "reserve
// a court": what is arranged, a visit when it is a person.
func bookedThing(ws []cword, a, b int) []string {
	for j := a; j+1 < b; j++ {
		switch ws[j].lower {
		case "book", "schedule", "arrange", "reserve", "booked", "scheduled", "arranged", "reserved", "organised", "organized",
			"confirmed", "planned":
		default:
			continue
		}
		k := j + 1
		if inSet(determiners, wordAt(ws, k)) {
			k++
		}
		var np []string
		for ; k < b && len(np) < 3 && titleModifier(ws[k]) && !inSet(firstPerson, ws[k].lower) && !startsCue(ws, k) && !inSet(cueEnds, ws[k].lower); k++ {
			np = append(np, ws[k].text)
			if ws[k].punct != 0 {
				break
			}
		}
		if len(np) == 0 {
			return nil
		}
		if head := strings.ToLower(np[len(np)-1]); inSet(tradesPeople, head) || inSet(professionals, head) {
			np = append(np, "visit")
		}
		return np
	}
	return nil
}

// slotCopulas join a dated thing to its date: "is on Monday", "will affect
// your street on Thursday", "starts at 9".
var slotCopulas = lexicon.NewSet(`is 's are will starts start begins begin opens runs`)

// hostVerbs put on an event: "we're doing a barbecue", "having a party".
var hostVerbs = lexicon.NewSet(`doing having throwing hosting holding organising organizing`)

// hostedThing is the event put on in ws[a:b] ("we're doing a barbecue next
// Sunday" → "barbecue"), or the table asked for ("a table for two on
// Saturday at eight thirty" → "table reservation"); nil when there is none.
func hostedThing(ws []cword, a, b int) []string {
	for j := a; j+2 < b; j++ {
		if ws[j].lower == "table" && wordAt(ws, j+1) == "for" && j > a && (ws[j-1].lower == "a" || ws[j-1].lower == "the") {
			return []string{"table", "reservation"}
		}
		if !inSet(hostVerbs, ws[j].lower) || ws[j+1].lower != "a" && ws[j+1].lower != "an" && ws[j+1].lower != "our" {
			continue
		}
		var np []string
		for k := j + 2; k < b && len(np) < 2 && titleModifier(ws[k]) && weekdayOf(ws[k].lower) < 0 && !inSet(cueStarts, ws[k].lower); k++ {
			np = append(np, ws[k].text)
			if ws[k].punct != 0 {
				break
			}
		}
		if len(np) > 0 {
			return np
		}
	}
	return nil
}

// eveningSlot: the clause books something of the evening: a restaurant
// table, a dinner, a party.
func eveningSlot(ws []cword, a, b int) bool {
	if np := hostedThing(ws, a, b); len(np) > 0 && strings.EqualFold(np[0], "table") {
		return true
	}
	for j := a; j < b; j++ {
		if inSet(eveningMeals, ws[j].lower) || inSet(eveningOutings, ws[j].lower) {
			return true
		}
	}
	return atHome(ws, a, b)
}

// atHome: the plan of ws[a:b] is held at someone's home ("at my place",
// "round ours", "at Anna's house"), where friends meet after work: a bare
// hour from seven to eleven is of the evening.
func atHome(ws []cword, a, b int) bool {
	for j := a; j < b; j++ {
		if ws[j].is(wcProfessional) || inSet(tradesPeople, ws[j].lower) {
			return false // "the electrician will be at my place Monday at 9"
		}
	}
	for j := a; j+1 < b; j++ {
		if w := ws[j].lower; w != "at" && w != "round" && w != "around" || ws[j].punct != 0 {
			continue
		}
		switch n := ws[j+1].lower; {
		case n == "mine" || n == "ours" || n == "yours":
			return true
		case n == "my" || n == "our" || n == "your" || n == "his" || n == "her" || n == "their" || strings.HasSuffix(n, "'s"):
			// "at my place", "at Anna's house", "at Anna's" and nothing after
			if inSet(homeWords, wordAt(ws, j+2)) || strings.HasSuffix(n, "'s") && (j+2 >= b || ws[j+1].punct != 0 || ws[j+2].is(wcStop)) {
				return true
			}
		}
	}
	return false
}

var homeWords = lexicon.NewSet(`place house flat apartment home`)

// eveningTitle: a plan named in an earlier turn is of the evening.
func eveningTitle(title string) bool {
	for _, w := range strings.Fields(strings.ToLower(title)) {
		if inSet(eveningMeals, w) || inSet(eveningOutings, w) {
			return true
		}
	}
	return false
}

// eveningMeals are had in the evening whatever hour is said.
var eveningMeals = lexicon.NewSet(`dinner supper drinks party concert gig`)

func hasWord(ws []cword, a, b int, w string) bool {
	for j := a; j < b; j++ {
		if ws[j].lower == w {
			return true
		}
	}
	return false
}

// seeAgain: "I'll see you again on Thursday", "see you next week at 4".
func seeAgain(ws []cword, a, b int) bool {
	for j := a; j+1 < b; j++ {
		if ws[j].lower == "see" && ws[j+1].lower == "you" && (strings.HasPrefix(wordAt(ws, j-1), "i") || j == skipDiscourse(ws, a, b) && j+2 < b && startsCue(ws, j+2)) {
			// "I'll see you again on Thursday", "see you Thursday at 4 then"
			return true
		}
	}
	return false
}

// namedDayPart: ws[k] is a day part named by the word before it, an event's
// name ("parents evening", "game night"), not a time.
func namedDayPart(ws []cword, a, k int) bool {
	return dayPartHour(ws[k].lower) > 0 && k > a && ws[k-1].punct == 0 && titleModifier(ws[k-1])
}

// purposeThing is what a slot is for, named last: "… for the filling", "…
// for your MOT"; nil when the clause names none (or a number of people:
// "for two").
func purposeThing(ws []cword, a, b int) []string {
	for j := b - 2; j > a; j-- {
		if ws[j].lower != "for" || !inSet(withDeterminers, wordAt(ws, j+1)) {
			continue
		}
		var np []string
		for k := j + 2; k < b && len(np) < 3 && titleModifier(ws[k]) && !startsCue(ws, k); k++ {
			np = append(np, ws[k].text)
		}
		if len(np) > 0 && j+2+len(np) >= b-1 {
			return np
		}
		return nil
	}
	return nil
}

// withWhom is who a dated clause is with ("… with the auditors tomorrow"),
// nil when it names no one.
func withWhom(ws []cword, a, b int) []string {
	for j := a; j+1 < b; j++ {
		if ws[j].lower != "with" {
			continue
		}
		k := j + 1
		if ws[k].is(wcWithDeterminer) {
			k++
		}
		var np []string
		for ; k < b && len(np) < 3 && titleModifier(ws[k]) && !startsCue(ws, k) && !inSet(firstPerson, ws[k].lower); k++ {
			np = append(np, ws[k].text)
			if ws[k].punct != 0 {
				break
			}
		}
		return np
	}
	return nil
}

// offersSlots: a provider offers times to choose from ("I have Thursday at
// 11:15 or Friday at 2", "we could do Monday or Tuesday morning").
func offersSlots(ws []cword) bool {
	return hasWord(ws, 0, len(ws), "or") && scanCues(ws, 0, len(ws), time.Time{}, nil).found &&
		(hasSeq(ws, 0, "i", "have") || hasSeq(ws, 0, "we", "have") || hasWord(ws, 0, len(ws), "could") || hasWord(ws, 0, len(ws), "available"))
}

// placeGoneTo is where the speakers go for a dated outing: "going to the
// theatre", "taking the kids to the zoo"; nil when they go nowhere named.
func placeGoneTo(ws []cword, a, b int) []string {
	for j := a; j+2 < b; j++ {
		if w := ws[j].lower; w != "going" && w != "go" && w != "taking" && w != "take" && w != "heading" {
			continue
		}
		for k := j + 1; k+1 < b && k <= j+4; k++ {
			if ws[k].lower != "to" || ws[k+1].lower != "the" {
				continue
			}
			var np []string
			for m := k + 2; m < b && len(np) < 2 && titleModifier(ws[m]) && !startsCue(ws, m); m++ {
				np = append(np, ws[m].text)
				if ws[m].punct != 0 {
					break
				}
			}
			return np
		}
	}
	return nil
}

// namedEvening is an event named by a day part and what it is: "parents
// evening", "quiz night", "movie night"; nil when there is none.
func namedEvening(ws []cword, a, b int) []string {
	for j := a + 1; j < b; j++ {
		if namedDayPart(ws, a, j) && !ws[j-1].is(wcStop) && weekdayOf(ws[j-1].lower) < 0 && !startsCue(ws, j-1) {
			return []string{ws[j-1].text, ws[j].text}
		}
	}
	return nil
}

// eveningOutings happen in the evening: "the theatre on Friday at 7:30".
var eveningOutings = lexicon.NewSet(`theatre theater cinema movies opera ballet gig concert show pub fireworks night`)

// answeredHour reads an hour given as the answer to a question about a
// plan: a bare number from one to twelve opening the turn, after a yes or
// not, and closing its phrase ("yes nine at the usual place", "seven works",
// "Sure, ten."). A number followed by a noun ("two people") is a count.
func answeredHour(ws []cword) (int, bool) {
	k := 0
	for k < len(ws) && k < 2 && inSet(agreeWords, ws[k].lower) {
		k++
	}
	h, n := cardinalAt(ws, k)
	if n != 1 || h < 1 || h > 12 || scanCues(ws, 0, len(ws), time.Time{}, nil).found {
		return 0, false
	}
	next := wordAt(ws, k+1)
	if ws[k].punct == 0 && next != "" && !inSet(hourFollowers, next) {
		return 0, false
	}
	return h, true
}

// hourFollowers may follow an hour said alone: "nine at the café", "seven
// works", "ten is fine", "eight then".
var hourFollowers = lexicon.NewSet(`at works work is then sounds suits o'clock sharp it's`)

// reportedSlot: ws[a:b] relays what someone said or offered ("he said
// friday at ten instead", "she says she can do Tuesday at 3").
func reportedSlot(ws []cword, a, b int) bool {
	for j := a; j < b && j < a+4; j++ {
		switch ws[j].lower {
		case "said", "says", "offered", "suggested", "suggests", "offers":
			return j > a && inSet(thirdPerson, ws[j-1].lower)
		}
	}
	return false
}

// vagueVisitors name no one in particular: "someone can come".
var vagueVisitors = lexicon.NewSet(`someone somebody guy team crew driver`)

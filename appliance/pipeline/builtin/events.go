package builtin

import (
	"strings"
	"time"

	"github.com/hearth-appliance/hearth/appliance"

	"github.com/hearth-appliance/hearth/appliance/pipeline/lexicon"
)

// Events are dated plans the user takes part in: "let's do the design
// review on Monday at 2 pm", "our flight leaves Saturday at 7:40", "the
// plumber is coming Thursday between 8 and 10". Like the reference's
// structure prompt, the built-in route keeps only confirmed plans with a
// specific time: a clause needs something that happens (a meeting, a
// meal, an appointment, someone coming over) and a time of day; a bare date
// ("dinner at Grandma's on Sunday") is not enough unless the plan is a meal,
// whose hour is conventional. Proposals ("want to get lunch on Thursday?")
// count once the next speaker agrees; past plans, other people's plans and
// suppositions do not.

const (
	maxEvents        = 5
	maxEventTitle    = 6 // words
	maxEventDescRune = 200
)

// eventNouns name something that happens at a time.
var eventNouns = lexicon.NewSet(`meeting meetings meetup appointment appt interview lunch dinner breakfast
	brunch coffee drinks party standup stand-up one-on-one 1:1 class lecture seminar exam midterm
	rehearsal recital concert movie flight reservation wedding ceremony funeral checkup check-up
	consultation demo presentation webinar workshop conference kickoff kick-off retro retrospective
	tournament haircut massage surgery therapy playdate performance graduation reunion lesson tutoring
	parade festival screening tasting vaccination ultrasound mri x-ray physio christening baptism
	memorial gig ballet opera pantomime panto filling thanksgiving easter hanukkah passover diwali walkthrough walk-through briefing debrief appraisal
	orientation onboarding handover offsite off-site potluck barbecue bbq fundraiser hackathon physiotherapy
	chemotherapy chemo dialysis acupuncture counselling counseling mammogram colonoscopy endoscopy biopsy
	bloodwork smear gala`)

// modifiedNouns are events only with a modifier before them: "design
// review", "follow-up call", "sprint planning", "a call".
// Some of them are also adjectives or verbs ("should be final", "I'll show
// you", "the due date").
var modifiedNouns = lexicon.NewSet(`review call planning sync visit catch-up check-in test session final
	finals game match practice training show date tour hearing viewing service repair repairs delivery
	installation inspection servicing maintenance cleaning fitting pickup pick-up tune-up play trip
	drop-off dropoff quiz club audit shower scan jab booster injection operation procedure`)

// serviceNouns are done for the user by others: "they can do the brake
// service on Monday at 8" is the user's plan though "they" say it.
var serviceNouns = lexicon.NewSet(`service repair repairs delivery installation inspection servicing
	maintenance cleaning fitting pickup pick-up tune-up appointment checkup check-up visit`)

// sendVerbs bring a person to the user: "he is sending a repairman on
// Tuesday at 2".
var sendVerbs = lexicon.NewSet(`send sending sends sent dispatch dispatching`)

// arriveVerbs bring someone or something to the user: "the installer
// arrives Friday at 8", "the package should arrive Monday between 9 and 12".
var arriveVerbs = lexicon.NewSet(`arrive arrives arriving`)

// deliverVerbs: "they'll deliver the fridge on Wednesday".
var deliverVerbs = lexicon.NewSet(`deliver delivers delivering`)

// professionals see the user by appointment: "the doctor can see me
// Tuesday at 10:15".
var professionals = lexicon.NewSet(`doctor dentist vet gp nurse therapist dermatologist optician optometrist
	physio physiotherapist counselor counsellor lawyer accountant surgeon specialist consultant
	orthodontist pediatrician paediatrician hygienist chiropractor dr advisor adviser hairdresser barber stylist
	tutor notary solicitor attorney realtor`)

// tradesPeople are who is sent or comes to do a job.
var tradesPeople = lexicon.NewSet(`plumber electrician technician tech repairman handyman engineer courier
	inspector cleaner cleaners contractor mechanic builder builders painter gardener nurse locksmith
	installer fitter surveyor driver someone somebody guy crew team exterminator carpenter roofer
	movers mover decorator`)

// visitVerbs bring someone to the user: "the technician can come", "he's
// coming Thursday".
var visitVerbs = lexicon.NewSet(`come coming comes stop stopping drop dropping swing swinging`)

// mealHours date a meal said with a day but no time.
var mealHours = map[string]int{"breakfast": 8, "brunch": 11, "lunch": 12, "dinner": eveningHour}

// pastWords in a plan's clause mean it already happened.
var pastWords = lexicon.NewSet(`was were had met went did happened missed cancelled canceled ago yesterday didn't wasn't weren't
	used`)

// proposalWords make a plan a suggestion until someone agrees.
var proposalWords = lexicon.NewSet(`could maybe might perhaps wanna would`)

// agreeWords open an answer that accepts a proposal.
var agreeWords = lexicon.NewSet(`yes yeah yep yup sure perfect great works okay ok deal absolutely definitely
	sounds good fine cool lovely done totally`)

// refuseWords in an answer reject it.
var refuseWords = lexicon.NewSet(`no nope can't cannot busy not won't don't doesn't isn't unfortunately sorry`)

var firstPerson = lexicon.NewSet(`i i'm i'll i've i'd we we're we'll we've we'd us our ours my me let's mine`)

var thirdPerson = lexicon.NewSet(`he she they he's she's they're he'll she'll they'll his their`)

// planVerbs after "let's" make a plan: "let's sync Monday at 11".
var planVerbs = lexicon.NewSet(`sync meet talk chat regroup reconvene catch check touch grab do get have`)

// hostedOver: "having <someone> over".
func hostedOver(ws []cword, j, b int) bool {
	for k := j + 1; k < b && k <= j+4; k++ {
		if ws[k].lower == "over" {
			return k > j+1
		}
		if ws[k].punct != 0 {
			return false
		}
	}
	return false
}

// eveningEvents happen in the evening: a bare "at 7" is 19:00.
var eveningEvents = lexicon.NewSet(`dinner drinks party concert movie show date over having have supper gig
	theatre theater cinema opera ballet`)

// attendVerbs make a task clause also an event: "I'll meet Dana at 3".
// Arranging verbs do too: "we need to book a table for her birthday dinner
// on the 14th at 7 pm" is a task (book it) and a plan (the dinner); the
// time belongs to the thing arranged.
var attendVerbs = lexicon.NewSet(`meet attend join go see visit have grab book schedule set arrange organize organise plan reserve`)

func (dl *dialogue) events(tm timing) []appliance.Event {
	out, _ := dl.eventsFrom(tm)
	return out
}

// eventsFrom is events with the utterance each was read from.
func (dl *dialogue) eventsFrom(tm timing) ([]appliance.Event, []int) {
	out := []appliance.Event{}
	var from []int
	if !tm.known() {
		return out, from
	}
	for i := range dl.utts {
		u := &dl.utts[i]
		ws := u.words
		for _, cl := range u.clauses {
			if calledOff(ws, cl[0], cl[1]) || willMiss(ws, cl[0], cl[1]) {
				continue
			}
			if k, _ := eventTrigger(ws, cl[0], cl[1], u.isUser); k >= 0 && arrangedWhen(ws, cl[0], cl[1], k) {
				continue
			}
			ev, ok := dl.eventIn(i, ws, cl[0], cl[1], tm)
			if !ok {
				ev, ok = dl.slotIn(i, ws, cl[0], cl[1], tm)
			}
			if !ok {
				ev, ok = dl.dayIn(i, ws, cl[0], cl[1], tm)
			}
			if !ok {
				ev, ok = dl.visitPerson(i, ws, cl[0], cl[1], tm)
			}
			if !ok || duplicateEvent(out, ev) {
				continue
			}
			if k := settledAgain(out, ev, tm.loc); k >= 0 {
				// "How about lunch on Friday?" "Friday works, say 12:30?":
				// the same plan, its time settled later in the talk
				out[k], from[k] = ev, i
				continue
			}
			out = append(out, ev)
			from = append(from, i)
			if len(out) == maxEvents {
				return out, from
			}
		}
	}
	return out, from
}

// eventIn reads a plan in clause ws[a:b] of utterance i.
func (dl *dialogue) eventIn(i int, ws []cword, a, b int, tm timing) (appliance.Event, bool) {
	u := &dl.utts[i]
	k, visit := eventTrigger(ws, a, b, u.isUser)
	if k < 0 {
		return dl.proposedTime(i, ws, a, b, tm)
	}
	if t := indexInt(u.tasks, a); t >= 0 && !inSet(attendVerbs, u.taskVerbs[t]) {
		return appliance.Event{}, false // "call the dentist tomorrow morning" is a task
	}
	for j := a; j < b; j++ {
		if inSet(pastWords, ws[j].lower) && !movedAt(ws, j) || gratitude(ws, j) {
			// "we met on Tuesday", "thanks for joining the call this morning"
			return appliance.Event{}, false
		}
		if w := ws[j].lower; (w == "until" || w == "till") && j+1 < b && startsCue(ws, j+1) && !hasWord(ws, a, j, "from") {
			// "I'm in a meeting until three": under way, ending then
			return appliance.Event{}, false
		}
		if w := ws[j].lower; w == "due" || w == "deadline" || w == "by" && j+1 < b && startsCue(ws, j+1) && !arrival(ws, j) {
			// "the presentation is due Friday at noon", "the slides by
			// Monday at 9": a time things must be done by, not one to be at
			return appliance.Event{}, false
		}
	}
	c := scanCues(ws, a, b, tm.ref, nil)
	if c.past || c.recurring || c.rel || usually(ws, a, b) {
		return appliance.Event{}, false
	}
	dl.saidMonth(i, a, &c, tm)
	if !c.clock && c.date {
		dl.laterClock(i, a, b, &c, tm)
	}
	if c.clock && !c.date {
		dl.earlierDate(i, a, &c, tm)
	}
	if !c.clock && c.part == 0 {
		h, meal := mealHours[ws[k].lower]
		for j := a; j < b && !meal && visit; j++ {
			// "my mom is coming over for dinner on sunday": a visit for a meal
			h, meal = mealHours[ws[j].lower]
		}
		if !meal || !c.date {
			return appliance.Event{}, false
		}
		c.clock, c.hour, c.min, c.meridiem = true, h, 0, 0
		if h > 12 {
			c.hour, c.meridiem = h-12, 'p'
		}
	}
	if !c.date && !c.clock {
		return appliance.Event{}, false
	}
	evening := inSet(eveningEvents, strings.TrimSuffix(ws[k].lower, "'s")) || atHome(ws, a, b)
	if o := bookedObject(ws, k); o > 0 && (ws[k].lower == "booked" || ws[k].lower == "scheduled") {
		evening = evening || ws[o].lower == "table" || inSet(eveningEvents, ws[o].lower)
	}
	if c.clock && c.meridiem == 0 && c.part == 0 && !c.amHint && c.hour >= 7 && c.hour <= 11 && evening {
		c.meridiem = 'p'
	}
	r, ok := c.resolve(tm.start, tm.loc)
	if !ok || r.at.Before(tm.start.Add(-time.Hour)) {
		return appliance.Event{}, false
	}
	if !visit && openingHours(ws, a, b) || broadcast(ws, a, b) || dl.wishedWell(i) {
		return appliance.Event{}, false
	}
	if !visit && dl.userKnown && !u.isUser && tellersOwn(ws, a, b) {
		// "i'm going to the gym at six tomorrow", "I have a meeting at 3 so
		// I'll be late", said to the user: the teller's plan
		return appliance.Event{}, false
	}
	if !visit && !inSet(serviceNouns, ws[k].lower) && otherPeoplesPlan(ws, a, b) &&
		!(dependantsAppointment(ws, k) && dl.userTakesPart(i)) {
		return appliance.Event{}, false
	}
	if dl.proposal(i, ws, a, b) && !dl.agreed(i) {
		return appliance.Event{}, false
	}
	dur := eventDuration(ws, a, b)
	if dur == 0 {
		dur = r.rangeMin
	}
	if dur <= 0 {
		dur = appliance.DefaultEventMinutes
	}
	dur = min(dur, appliance.MaxEventMinutes)
	title := dl.eventTitle(i, ws, a, k, visit)
	if strings.HasSuffix(ws[k].lower, "'s") {
		title = strings.TrimSuffix(title, "'s") // "flight's at six fifty"
	}
	if !visit && ws[k].is(wcProfessional) && !strings.Contains(strings.ToLower(title), "appointment") {
		title += " Appointment" // "I'm seeing the accountant on Friday"
	}
	return appliance.Event{
		Title:       title,
		Description: eventDescription(u, a, b),
		Start:       r.at,
		Duration:    dur,
	}, true
}

// startsCue: a time cue begins at ws[k] ("Friday", "the 3rd", "noon", "5").
func startsCue(ws []cword, k int) bool {
	w := ws[k].lower
	if w == "the" || w == "next" || w == "this" || w == "end" {
		return true
	}
	return weekdayOf(w) >= 0 || inSet(cueStarts, w) || numberWord(w) || w != "" && w[0] >= '0' && w[0] <= '9'
}

// gratitude: "thanks for joining", "thank you for coming": the meeting it
// thanks for is under way or over, so it is no plan. "Thanks for booking
// the table for Friday at 8" still is one.
func gratitude(ws []cword, j int) bool {
	k := j + 1
	switch ws[j].lower {
	case "thanks":
	case "thank":
		if wordAt(ws, k) != "you" {
			return false
		}
		k++
	default:
		return false
	}
	return wordAt(ws, k) == "for" && inSet(attendedVerbs, wordAt(ws, k+1))
}

// attendedVerbs after "thanks for" name taking part in the meeting itself.
var attendedVerbs = lexicon.NewSet(`joining coming attending calling having hopping making taking being meeting
	jumping dialing dialling`)

// proposedTime: "Would next Tuesday at 2 pm work for you?" answered "Tuesday
// at 2 works": an agreed day and time for the plan named just before ("the
// next step would be a technical interview").
func (dl *dialogue) proposedTime(i int, ws []cword, a, b int, tm timing) (appliance.Event, bool) {
	if !dl.proposal(i, ws, a, b) || !dl.agreed(i) {
		return appliance.Event{}, false
	}
	if t := indexInt(dl.utts[i].tasks, a); t >= 0 && !inSet(attendVerbs, dl.utts[i].taskVerbs[t]) {
		// "Can you send the report by Friday at two?" "Sure." dates the task, not a plan
		return appliance.Event{}, false
	}
	c := scanCues(ws, a, b, tm.ref, nil)
	if !c.date || !c.clock || c.past || c.rel {
		return appliance.Event{}, false
	}
	dl.saidMonth(i, a, &c, tm)
	for j := i - 1; j >= 0 && j >= i-2; j-- {
		pw := dl.utts[j].words
		k, visit := eventTrigger(pw, 0, len(pw), dl.utts[j].isUser)
		if k < 0 || visit {
			continue
		}
		r, ok := c.resolve(tm.start, tm.loc)
		if !ok || r.at.Before(tm.start) {
			return appliance.Event{}, false
		}
		return appliance.Event{
			Title:       dl.eventTitle(j, pw, 0, k, false),
			Description: truncateRunes(cleanSentence(dl.utts[j].text+" "+dl.utts[i].text), maxEventDescRune),
			Start:       r.at,
			Duration:    appliance.DefaultEventMinutes,
		}, true
	}
	return appliance.Event{}, false
}

// eventTrigger finds the word that makes the clause a plan: an event noun,
// a modified noun ("design review"), a visit verb, or "meet". byUser: the
// clause is the user's, whose "I'll come" is no visit received.
func eventTrigger(ws []cword, a, b int, byUser bool) (k int, visit bool) {
	for j := a; j < b; j++ {
		w := ws[j].lower
		if len(w) > 4 && w[len(w)-1] == 's' && inSet(eventNouns, w[:len(w)-1]) {
			w = w[:len(w)-1] // "conferences", "interviews"
		}
		if base := strings.TrimSuffix(w, "'s"); base != w && inSet(eventNouns, base) && (startsCue(ws, j+1) ||
			(wordAt(ws, j+1) == "on" || wordAt(ws, j+1) == "at") && j+2 < b && startsCue(ws, j+2)) {
			w = base // "flight's at six fifty", "the party's on saturday": the flight is
		}
		c := ws[j].classes()
		if w != ws[j].lower {
			c = classesOf(w)
		}
		switch {
		case c&wcSendVerb != 0 && j > a && sentPerson(ws, j, b) > 0:
			// "he is sending a repairman on Tuesday"
			return j, true
		case w == "delivered" && j > a:
			// "the sofa is being delivered on Thursday between 8 and 12"
			return j, true
		case c&wcDeliverVerb != 0 && j > a && deliveredThing(ws, j, b) > 0:
			// "they'll deliver the fridge on Wednesday"
			return j, true
		case c&wcArriveVerb != 0 && j > a && someoneElse(ws, a, j):
			// "the installer arrives Friday at 8"
			return j, true
		case w == "be" && wordAt(ws, j+1) == "here" && j > a && someoneElse(ws, a, j):
			// "the electrician will be here Thursday at 10"
			return j, true
		case (w == "seeing" || w == "see") && j+2 < b && ws[j+1].is(wcWithDeterminer) && ws[j+2].is(wcProfessional):
			// "I'm seeing the accountant on Friday at eleven"
			return j + 2, false
		case w == "see" && j > a && (wordAt(ws, j+1) == "me" || wordAt(ws, j+1) == "us") && professionalBefore(ws, a, j) >= 0:
			// "the doctor can see me next Tuesday at 10:15"
			return j, true
		case (w == "booked" || w == "scheduled") && j > a:
			// "it's booked for Wednesday at half ten"
			return j, true
		case dependantsAppointment(ws, j+2):
			// "Ben has his dentist on the second at nine"
			return j + 2, false
		case (w == "having" || w == "have") && hostedOver(ws, j, b):
			// "we're having the Hendersons over tomorrow at 7"
			return j, true
		case j > a && ws[j-1].lower == "let's" && c&wcPlanVerb != 0:
			// "let's sync again Monday at 11"
			return j, false
		case c&wcEventNoun != 0:
			if w == "coffee" && j+1 < b && !ws[j+1].is(wcStop) {
				continue // "coffee filters"
			}
			return j, false
		case c&wcModifiedNoun != 0 && j > a:
			prev := ws[j-1].lower
			if prev == "due" {
				continue // "the due date"
			}
			if ws[j-1].punct == 0 && (ws[j-1].is(wcDeterminer) || !ws[j-1].is(wcStop|wcSubjectPronoun) &&
				!strings.HasSuffix(prev, "'ll") && prev != "to") && wordAt(ws, j+1) != "to" {
				return j, false
			}
		case c&wcFlyVerb != 0 && j > a && ws[j-1].is(wcFlySubject) && inSet(flyParticles, wordAt(ws, j+1)):
			// "we fly out on the third of december at six in the morning"
			return j, false
		case c&wcTransportNoun != 0 && inSet(departWords, wordAt(ws, j+1)):
			// "my train leaves at six fifteen tomorrow morning"
			return j, false
		case hasSeq(ws, j, "follow", "up") && j > a && ws[j-1].is(wcWithDeterminer):
			// "i've put you in for a follow up on december second at nine"
			return j, false
		case hasSeq(ws, j, "one", "on", "one"):
			// "our one on one", as a recogniser writes it
			return j + 2, false
		case w == "meet" || hasSeq(ws, j, "get", "together") || hasSeq(ws, j, "catch", "up"):
			return j, false
		case c&wcVisitVerb != 0 && byUser && userGoes(ws, a, j):
			// "I'll come around six then", "I'll come back Thursday": the
			// user calling at a shop or an office is an errand, not a visit
			// received
		case c&wcVisitVerb != 0 && (wordAt(ws, j+1) == "out" || wordAt(ws, j+1) == "up"):
			// "the results come out tonight", "something came up": no one calls
		case c&wcVisitVerb != 0:
			if w == "come" || w == "coming" || w == "comes" ||
				wordAt(ws, j+1) == "by" || wordAt(ws, j+1) == "over" {
				return j, true
			}
		}
	}
	return -1, false
}

// flyVerbs with a speaker for subject and a direction make a flight: "we
// fly out on Friday at 6", "I'm flying back Sunday at noon".
var (
	flyVerbs     = lexicon.NewSet(`fly flying`)
	flySubjects  = lexicon.NewSet(`i we i'm we're you you're`)
	flyParticles = lexicon.NewSet(`out back home to from`)
)

// userGoes: the subject just before the visit verb at j is the speaker
// ("I'll come", "I can swing by").
func userGoes(ws []cword, a, j int) bool {
	for k := j - 1; k >= a && k >= j-3; k-- {
		switch w := ws[k].lower; {
		case w == "i" || w == "i'll" || w == "i'm":
			return true
		case w == "can" || w == "will" || w == "could" || w == "just" || w == "probably" || w == "gonna" || w == "going" || w == "to":
		default:
			return false
		}
	}
	return false
}

// deliveredThing is where the thing delivered after ws[j] is named ("deliver
// the fridge"), 0 when none is.
func deliveredThing(ws []cword, j, b int) int {
	for k := j + 1; k < b && k <= j+4; k++ {
		w := ws[k].lower
		if inSet(withDeterminers, w) || inSet(referentAdjectives, w) && k+1 < b && ws[k].punct == 0 {
			continue // "the new fridge": the fridge
		}
		if !inSet(stopWords, w) && !isFiller(w) && weekdayOf(w) < 0 && !inSet(cueStarts, w) {
			return k
		}
		return 0
	}
	return 0
}

// someoneElse: the subject before ws[j] is a noun or a third person ("the
// installer arrives", "he'll be here"), not the user ("we arrive").
func someoneElse(ws []cword, a, j int) bool {
	if len(subjectPhrase(ws, a, j)) > 0 {
		return true
	}
	for k := j - 1; k >= a && k >= j-3; k-- {
		switch w := ws[k].lower; {
		case inSet(thirdPerson, w) || w == "he" || w == "she" || w == "they":
			return true
		case inSet(firstPerson, w) || w == "you" || strings.HasPrefix(w, "you'"):
			return false
		}
	}
	return false
}

// professionalBefore is where a professional is named in ws[a:j], -1 when
// none is.
func professionalBefore(ws []cword, a, j int) int {
	for k := j - 1; k >= a; k-- {
		if ws[k].is(wcProfessional) {
			return k
		}
	}
	return -1
}

// subjectPhrase is the noun phrase ending just before ws[k] (past
// auxiliaries): "the movers are booked" → "movers", "the boiler service is
// booked" → "boiler service"; "" for a pronoun or nothing.
func subjectPhrase(ws []cword, a, k int) []string {
	j := k - 1
	for j >= a && (inSet(questionAux, ws[j].lower) || ws[j].lower == "'s" || ws[j].lower == "being" ||
		ws[j].lower == "getting" || ws[j].lower == "all" || ws[j].lower == "should" || ws[j].lower == "going" || ws[j].lower == "to" ||
		strings.HasSuffix(ws[j].lower, "'ll") || strings.HasSuffix(ws[j].lower, "'re")) {
		j--
	}
	end := j
	for j >= a && end-j < 3 && titleModifier(ws[j]) && !ws[j].is(wcSubjectPronoun) && !inSet(thirdPerson, ws[j].lower) {
		j--
	}
	if j == end {
		return nil
	}
	out := make([]string, 0, end-j)
	for m := j + 1; m <= end; m++ {
		out = append(out, ws[m].text)
	}
	return out
}

// bookedObject is where the thing booked after ws[k] is named ("booked a
// table"), 0 when "booked" is followed by its time ("booked it for…").
func bookedObject(ws []cword, k int) int {
	if !inSet(withDeterminers, wordAt(ws, k+1)) || ws[k].punct != 0 {
		return 0
	}
	if n := k + 2; n < len(ws) && ws[k+1].punct == 0 && titleModifier(ws[n]) {
		return n
	}
	return 0
}

// bookedInFor is the plan named after "booked (you) in for" ("booked you
// in for a blood test" → "blood test"), nil when none is.
func bookedInFor(ws []cword, k int) []string {
	j := k + 1
	if w := wordAt(ws, j); w == "you" || w == "me" || w == "us" || w == "him" || w == "her" || w == "them" {
		j++
	}
	if wordAt(ws, j) == "in" {
		j++
	}
	if wordAt(ws, j) != "for" || !inSet(withDeterminers, wordAt(ws, j+1)) {
		return nil
	}
	var out []string
	for m := j + 2; m < len(ws) && len(out) < 3; m++ {
		if !titleModifier(ws[m]) || ws[m].is(wcSubjectPronoun) || startsCue(ws, m) {
			break
		}
		out = append(out, ws[m].text)
		if ws[m].is(wcEventNoun) || ws[m].is(wcModifiedNoun) || ws[m].punct != 0 {
			break
		}
	}
	if len(out) == 0 || classesOf(strings.ToLower(out[len(out)-1]))&(wcEventNoun|wcModifiedNoun) == 0 {
		return nil
	}
	return out
}

// sentPerson is where the person sent after ws[j] is named ("sending a
// repairman", "sending someone over", "sending their technician"), 0 when
// what is sent is no person ("sending the report").
func sentPerson(ws []cword, j, b int) int {
	for k := j + 1; k < b && k <= j+3; k++ {
		w := ws[k].lower
		if inSet(tradesPeople, w) {
			return k
		}
		if !inSet(withDeterminers, w) && w != "over" && w != "out" && w != "round" {
			return 0
		}
	}
	return 0
}

// otherPeoplesPlan: the clause's subject is someone else ("Jake is flying
// to Denver on Friday at 6") and neither the user nor the listener is
// anywhere in the sentence ("Emma has her recital at 2, so we can't…" is
// the family's plan).
func otherPeoplesPlan(ws []cword, a, b int) bool {
	third := false
	for j := a; j < b; j++ {
		w := ws[j]
		if inSet(thirdPerson, w.lower) || w.cap && j > 0 && inSet(nameVerbs, wordAt(ws, j+1)) && !prepositionObject(ws, a, j) {
			third = true
		}
	}
	if !third {
		return false
	}
	for j, w := range ws {
		switch {
		case inSet(firstPerson, w.lower):
			return false
		case (w.lower == "you" || w.lower == "your") && !inSet(hearsay, wordAt(ws, j+1)):
			return false
		}
	}
	return true
}

// tellersOwn: clause ws[a:b] is the speaker's own plan, said with "I" and
// a verb of having or going, and no one else in it: no "you", "we", "us",
// "our", nothing booked.
func tellersOwn(ws []cword, a, b int) bool {
	s := skipDiscourse(ws, a, b)
	switch {
	case hasSeq(ws, s, "i", "have"), hasSeq(ws, s, "i've", "got"), hasSeq(ws, s, "i'm", "going"), hasSeq(ws, s, "i", "am", "going"),
		hasSeq(ws, s, "i've", "a"), hasSeq(ws, s, "i", "got"), hasSeq(ws, s, "i'm", "off"):
	default:
		return false
	}
	for j := a; j < b; j++ {
		switch w := ws[j].lower; {
		case strings.HasPrefix(w, "you"), w == "we", w == "we're", w == "we'll", w == "us", w == "our", inSet(bookingWords, w):
			return false
		}
	}
	return true
}

// usually: ws[a:b] says what happens as a rule ("usually the bus comes at
// 7:45", "we normally eat at six"), which is no plan.
func usually(ws []cword, a, b int) bool {
	for j := a; j < b; j++ {
		if inSet(ruleAdverbs, ws[j].lower) {
			return true
		}
	}
	return false
}

// ruleAdverbs say how things go as a rule.
var ruleAdverbs = lexicon.NewSet(`usually normally typically generally always often sometimes rarely`)

// hearsay after "you" only relays news: "did you hear Jake is…".
var hearsay = lexicon.NewSet(`hear heard know knew see saw think`)

var nameVerbs = lexicon.NewSet(`is was has will 's 'll and`)

// prepositionObject: the name at ws[j] is the object of a preposition
// ("dinner with the Parkers is on Saturday"), so the verb after it has the
// phrase before the preposition for subject, not the name.
func prepositionObject(ws []cword, a, j int) bool {
	k := j - 1
	if k >= a && inSet(withDeterminers, ws[k].lower) {
		k--
	}
	return k >= a && ws[k].punct == 0 && inSet(namePrepositions, ws[k].lower)
}

var namePrepositions = lexicon.NewSet(`with for at to from by of about`)

// proposal: the plan is asked or suggested rather than settled.
func (dl *dialogue) proposal(i int, ws []cword, a, b int) bool {
	if dl.utts[i].question {
		return true
	}
	for j := a; j < b; j++ {
		w := ws[j].lower
		if inSet(proposalWords, w) || hasSeq(ws, j, "how", "about") || hasSeq(ws, j, "what", "about") ||
			hasSeq(ws, j, "want", "to") || hasSeq(ws, j, "if") {
			return true
		}
	}
	return false
}

// agreed: the next thing another speaker says accepts the proposal.
func (dl *dialogue) agreed(i int) bool {
	seg := dl.utts[i].seg
	for j := i + 1; j < len(dl.utts); j++ {
		v := dl.utts[j]
		if v.seg == seg {
			continue
		}
		if v.speaker == dl.utts[i].speaker {
			return false
		}
		ws := v.words
		for k := 0; k < len(ws) && k < 6; k++ {
			if inSet(refuseWords, ws[k].lower) {
				return false
			}
			if inSet(agreeWords, ws[k].lower) || hasSeq(ws, k, "see", "you") || hasSeq(ws, k, "love", "to") ||
				hasSeq(ws, k, "can", "do") || hasSeq(ws, k, "can", "make") || hasSeq(ws, k, "be", "there") ||
				hasSeq(ws, k, "take", "it") || hasSeq(ws, k, "let's", "do", "it") {
				return true
			}
		}
		return false
	}
	return false
}

// eventDuration reads "for an hour", "for 90 minutes", "for two hours",
// "for half an hour", "a 90-minute session"; 0 when none is said.
func eventDuration(ws []cword, a, b int) int {
	for j := a; j < b; j++ {
		w := ws[j].lower
		if w == "for" {
			k := j + 1
			if hasSeq(ws, k, "half", "an", "hour") {
				return 30
			}
			v, n := numberAt(ws, k)
			if n == 0 && (wordAt(ws, k) == "an" || wordAt(ws, k) == "a") {
				v, n = 1, 1
			}
			if n == 0 {
				continue
			}
			unit := unitOf(wordAt(ws, k+n))
			if unit != unitMinute && unit != unitHour {
				continue
			}
			if hasSeq(ws, k+n+1, "and", "a", "half") {
				v += 0.5
			}
			return int(v * float64(unit))
		}
		// "90-minute", "two-hour"
		if num, unit, ok := strings.Cut(w, "-"); ok {
			u := unitOf(unit + "s")
			if u != unitMinute && u != unitHour {
				continue
			}
			v, n := numberAt([]cword{{lower: num}}, 0)
			if n == 1 {
				return int(v * float64(u))
			}
		}
	}
	return 0
}

// eventTitle names the plan: the event noun with up to two words before it
// ("Design Review", "Grandma's Birthday Dinner"), "with" and a name when
// one follows, or for a visit the visitor ("Plumber Visit").
func (dl *dialogue) eventTitle(i int, ws []cword, a, k int, visit bool) string {
	var words []string
	if k >= 2 && hasSeq(ws, k-2, "one", "on", "one") {
		return "One-on-one"
	}
	switch {
	case visit && (ws[k].lower == "having" || ws[k].lower == "have"):
		var guests []string
		for j := k + 1; j < len(ws) && ws[j].lower != "over"; j++ {
			if !ws[j].is(wcStop) {
				guests = append(guests, ws[j].text)
			}
		}
		words = append(guests, "over")
		if len(guests) == 0 {
			words = []string{"guests", "over"}
		}
	case visit && ws[k].is(wcSendVerb):
		words = []string{ws[sentPerson(ws, k, len(ws))].text, "visit"}
	case visit && ws[k].is(wcDeliverVerb):
		words = []string{ws[deliveredThing(ws, k, len(ws))].text, "delivery"}
	case visit && ws[k].lower == "see":
		words = []string{ws[professionalBefore(ws, a, k)].text, "appointment"}
	case visit && (ws[k].is(wcArriveVerb) || ws[k].lower == "be"):
		who := subjectPhrase(ws, a, k)
		if len(who) == 0 {
			if w := dl.antecedent(i); w != "" {
				who = []string{w}
			}
		}
		switch {
		case len(who) == 0:
			words = []string{"arrival"}
		case inSet(tradesPeople, strings.ToLower(who[len(who)-1])) || inSet(professionals, strings.ToLower(who[len(who)-1])):
			words = append(who, "visit")
		default:
			words = append(who, "delivery") // "the package should arrive…"
		}
	case visit && ws[k].lower == "delivered":
		what := ""
		for j := k - 1; j >= a; j-- {
			if w := ws[j].lower; !inSet(stopWords, w) && !isFiller(w) && w != "being" && w != "getting" {
				what = ws[j].text
				break
			}
		}
		if what == "" {
			what = dl.antecedent(i)
		}
		words = []string{what, "delivery"}
		if what == "" {
			words = []string{"delivery"}
		}
	case visit && (ws[k].lower == "booked" || ws[k].lower == "scheduled") && bookedObject(ws, k) > 0:
		// "I booked a table at Luigi's": what was booked follows
		o := bookedObject(ws, k)
		words = []string{ws[o].text}
		if wordAt(ws, o+1) == "at" && o+2 < len(ws) && (ws[o+2].cap || strings.HasSuffix(ws[o+2].lower, "'s")) {
			words = append(words, "at", ws[o+2].text)
		}
	case visit && (ws[k].lower == "booked" || ws[k].lower == "scheduled") && len(bookedInFor(ws, k)) > 0:
		// "I've booked you in for a blood test on Monday"
		words = bookedInFor(ws, k)
	case visit && (ws[k].lower == "booked" || ws[k].lower == "scheduled") && (hasSeq(ws, a, "your", "table", "for") || hasSeq(ws, a, "our", "table", "for")):
		// "your table for two is booked for 8 tonight"
		words = []string{"table", "reservation"}
	case visit && (ws[k].lower == "booked" || ws[k].lower == "scheduled") && len(subjectPhrase(ws, a, k)) > 0:
		// "the movers are booked for…", "the boiler service is scheduled for…"
		words = subjectPhrase(ws, a, k)
		if last := strings.ToLower(words[len(words)-1]); inSet(tradesPeople, last) {
			words = append(words, "visit")
		}
	case visit && (ws[k].lower == "booked" || ws[k].lower == "scheduled"):
		what := dl.antecedentPhrase(i, ws, a)
		if what == "" {
			what = "appointment"
		}
		words = strings.Fields(what)
	case visit:
		who := visitor(ws, a, k)
		if who == "" {
			who = dl.antecedent(i)
		}
		if who == "" {
			return "Visit"
		}
		words = []string{who, "visit"}
	case dependantsAppointment(ws, k):
		if k-3 >= a && titleModifier(ws[k-3]) && !inSet(thirdPerson, ws[k-3].lower) && !inSet(firstPerson, ws[k-3].lower) && ws[k-2].lower != "got" {
			words = []string{ws[k-3].text + "'s"} // whose: "Ben's Dentist Appointment"
		}
		words = append(words, ws[k].text, "appointment")
	case ws[k].lower == "meet" || ws[k].lower == "get" || ws[k].lower == "catch":
		words = []string{"meeting"}
	case hasSeq(ws, k, "follow", "up"):
		words = []string{"follow-up", "appointment"}
	case ws[k].is(wcFlyVerb):
		words = []string{"flight"} // "we fly out on the third at six"
		if wordAt(ws, k+1) == "to" && k+2 < len(ws) && ws[k+2].cap {
			words = append(words, "to", ws[k+2].text)
		}
	case k > a && ws[k-1].lower == "let's" && inSet(talkVerbs, ws[k].lower):
		words = []string{"call"} // "let's talk again on December 2nd"
		if inSet(eventNouns, wordAt(ws, k+1)) {
			words = []string{ws[k+1].text}
		}
	case k > a && ws[k-1].lower == "let's" && ws[k].is(wcPlanVerb):
		words = []string{ws[k].text}
		if inSet(eventNouns, wordAt(ws, k+1)) {
			words = []string{ws[k+1].text}
		}
	default:
		start := k
		for start > a && k-start < 2 && ws[start-1].punct == 0 && titleModifier(ws[start-1]) {
			start--
		}
		for j := start; j <= k; j++ {
			words = append(words, ws[j].text)
		}
	}
	if with := withName(ws, k); with != "" {
		words = append(words, "with", with)
	}
	if len(words) > maxEventTitle {
		words = words[:maxEventTitle]
	}
	return titleCase(words)
}

// titleModifier: a word that can qualify an event noun in a title.
func titleModifier(w cword) bool {
	l := w.lower
	return !inSet(stopWords, l) && !inSet(lightWords, l) && !isFiller(l) && weekdayOf(l) < 0 &&
		unitOf(l) == 0 && !inSet(absorbable, l) && !isDigits(l) || strings.HasSuffix(l, "'s") && w.cap
}

// withName: "lunch with Priya" → "Priya"; "a call with their counsel" →
// "counsel", "an appointment with the technician" → "technician".
func withName(ws []cword, k int) string {
	for j := k + 1; j < len(ws) && j < k+4; j++ {
		if ws[j].lower == "with" && j+1 < len(ws) && ws[j+1].cap && ws[j+1].lower != "i" {
			return ws[j+1].text
		}
		if ws[j].lower == "with" && j+2 < len(ws) && ws[j+1].is(wcWithDeterminer) && ws[j+1].punct == 0 {
			if n := ws[j+2]; titleModifier(n) && !inSet(firstPerson, n.lower) && !inSet(thirdPerson, n.lower) {
				return n.text
			}
		}
		if ws[j-1].punct != 0 {
			break
		}
	}
	return ""
}

// withDeterminers may stand between "with" and the person named.
var withDeterminers = lexicon.NewSet(`the their our my his her your a an`)

// visitor is the noun before a visit verb: "the technician can come".
func visitor(ws []cword, a, k int) string {
	for j := k - 1; j >= a; j-- {
		w := ws[j].lower
		switch {
		case inSet(questionAux, w) || w == "'s" || w == "can" || w == "will" || w == "going" || w == "to":
			continue
		case inSet(subjectPronouns, w) || inSet(thirdPerson, w):
			return ""
		case !inSet(stopWords, w) && !isFiller(w):
			return ws[j].text
		}
		return ""
	}
	return ""
}

// antecedent finds who "he" or "she" is in the sentences just before:
// the last "the <noun>" or capitalised name ("back from the plumber").
func (dl *dialogue) antecedent(i int) string {
	for j := i - 1; j >= 0 && j >= i-2; j-- {
		ws := dl.utts[j].words
		for k := len(ws) - 1; k > 0; k-- {
			w := ws[k]
			if ws[k-1].lower == "the" && !inSet(stopWords, w.lower) && !isFiller(w.lower) {
				return w.text
			}
		}
	}
	return ""
}

// antecedentPhrase is the "the <noun> <noun>" a pronoun clause refers to,
// looked for earlier in the same sentence, then in the one before: "the
// boiler service, it's booked for Wednesday".
func (dl *dialogue) antecedentPhrase(i int, cur []cword, before int) string {
	find := func(ws []cword, end int) string {
		for k := end - 1; k > 0; k-- {
			if ws[k-1].lower != "the" || ws[k].is(wcStop) {
				continue
			}
			phrase := ws[k].text
			if k+1 < end && ws[k].punct == 0 && !ws[k+1].is(wcStop) && !isFiller(ws[k+1].lower) {
				phrase += " " + ws[k+1].text
			}
			return phrase
		}
		return ""
	}
	if p := find(cur, before); p != "" {
		return p
	}
	if i > 0 {
		return find(dl.utts[i-1].words, len(dl.utts[i-1].words))
	}
	return ""
}

// eventDescription is the sentence that makes the plan, or for run-on
// speech with no sentence ends (a live recogniser's lowercase words) the
// clause of the plan: the whole run would be a paragraph.
func eventDescription(u *utterance, a, b int) string {
	text := u.text
	if len(u.clauses) > 1 && !sentenceEnded(u.words) {
		parts := make([]string, 0, b-a)
		for _, w := range u.words[a:b] {
			parts = append(parts, w.text)
		}
		text = strings.Join(parts, " ")
	}
	return truncateRunes(cleanSentence(text), maxEventDescRune)
}

// sentenceEnded: the utterance was written with punctuation.
func sentenceEnded(ws []cword) bool {
	for _, w := range ws {
		if w.punct != 0 {
			return true
		}
	}
	return false
}

func duplicateEvent(evs []appliance.Event, ev appliance.Event) bool {
	for _, e := range evs {
		if e.Start.Equal(ev.Start) {
			return true
		}
	}
	return false
}

func indexInt(xs []int, x int) int {
	for i, v := range xs {
		if v == x {
			return i
		}
	}
	return -1
}

// dependantsAppointment: the professional at ws[k] is someone's
// appointment, "has his dentist", "have their check-up with the doctor"
// aside: a person who "has" a professional is seen by them.
func dependantsAppointment(ws []cword, k int) bool {
	if k < 2 || !inSet(professionals, wordAt(ws, k)) || !inSet(withDeterminers, wordAt(ws, k-1)) {
		return false
	}
	v := wordAt(ws, k-2)
	return v == "has" || v == "have" || v == "got" && (wordAt(ws, k-3) == "i've" || wordAt(ws, k-3) == "we've" || wordAt(ws, k-3) == "i" ||
		wordAt(ws, k-3) == "has" || wordAt(ws, k-3) == "she's" || wordAt(ws, k-3) == "he's") // "i've got the optician at eleven"
}

// userTakesPart: the user answers the plan told at utterance i by taking
// part in it ("okay I'll take him"), so another person's appointment is
// one the user must be at.
func (dl *dialogue) userTakesPart(i int) bool {
	if i+1 >= len(dl.utts) || !dl.utts[i+1].isUser || dl.utts[i].isUser {
		return false
	}
	for _, w := range dl.utts[i+1].words {
		if w.lower == "i'll" || w.lower == "we'll" {
			return true
		}
	}
	return false
}

// settledAgain is the event of evs with ev's title on ev's day (in loc), -1
// when there is none.
func settledAgain(evs []appliance.Event, ev appliance.Event, loc *time.Location) int {
	day := ev.Start.In(loc).Format(time.DateOnly)
	for k, e := range evs {
		if strings.EqualFold(e.Title, ev.Title) && e.Start.In(loc).Format(time.DateOnly) == day {
			return k
		}
	}
	return -1
}

// transportNouns leave at a time: "my train leaves at 6:15".
var transportNouns = lexicon.NewSet(`train bus coach ferry boat shuttle`)

var departWords = lexicon.NewSet(`leaves departs goes gets arrives is's`)

// arrival: the "by" at ws[j] says when to be somewhere ("she wants
// everyone there by two"), the start of a plan rather than a deadline.
func arrival(ws []cword, j int) bool {
	p := wordAt(ws, j-1)
	return ws[j].lower == "by" && (p == "there" || p == "here")
}

// pastAt: ws[j] says a date-only plan is over ("it was on the 20th"),
// unless it only relays news ("did you hear the office is closed on
// Friday"). Timed plans keep the plain rule: "did you hear jake is flying
// to denver on friday at 6" is someone else's news.
func pastAt(ws []cword, j int) bool {
	if !inSet(pastWords, ws[j].lower) || movedAt(ws, j) {
		return false
	}
	return ws[j].lower != "did" || wordAt(ws, j+1) != "you" || !inSet(hearsay, wordAt(ws, j+2))
}

// arrangingVerbs take a plan as their object: "booking the flights".
var arrangingVerbs = lexicon.NewSet(`book booking books buy buying order ordering reserve reserving`)

// arrangedWhen: the plan at ws[k] is the object of arranging it ("my
// husband is booking the flights tonight") and no time is said for it with
// "for" ("booking the dinner for Friday at 8"): the time is when it is
// arranged, not when it happens.
func arrangedWhen(ws []cword, a, b, k int) bool {
	v := k - 1
	if v > a && ws[v].is(wcDeterminer) {
		v--
	}
	if v < a || !inSet(arrangingVerbs, ws[v].lower) {
		return false
	}
	if inSet(copulas, wordAt(ws, k+1)) && ws[k].punct == 0 {
		return false // "book club is on wednesday": a noun before the verb
	}
	for j := k + 1; j < b; j++ {
		if ws[j].lower == "for" && j+1 < b && startsCue(ws, j+1) {
			return false
		}
	}
	return true
}

// movedAt: the past tense at ws[j] only says a plan was moved ("the parent
// evening was moved to next Thursday at 5:30", "it's been pushed to
// Monday"): the plan itself is ahead.
func movedAt(ws []cword, j int) bool {
	w := ws[j].lower
	return (w == "was" || w == "were" || w == "had") && (inSet(movedVerbs, wordAt(ws, j+1)) ||
		wordAt(ws, j+1) == "been" && inSet(movedVerbs, wordAt(ws, j+2)))
}

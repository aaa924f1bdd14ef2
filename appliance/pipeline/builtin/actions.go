package builtin

import (
	"slices"
	"strings"
	"time"

	"github.com/hearth-appliance/hearth/appliance"

	"github.com/hearth-appliance/hearth/appliance/pipeline/lexicon"
)

// Action items are the user's own commitments and the requests others make
// of the user. The reference keeps very little (one item per topic, the
// user must own it); the built-in route follows the same spirit with cues
// rather than a model:
//   - the user commits: "I need to…", "I'll…", "I have to…", "remind me
//     to…", "don't let me forget to…", "let me…", "we need to…";
//   - someone asks the user: "can you send me…", "don't forget to…";
//   - someone recalls the user's promise: "you said you'd…";
//   - in a memo recorded alone, a bare imperative is a note to self ("Also
//     return the library books").
// Hypotheticals ("if we had budget I would…"), questions ("do I need to…"),
// reported advice ("my doctor said I should…"), negations and other people's
// tasks are not items. A commitment too vague to stand alone ("I'll do it
// tonight") lends its time to the task it answers.

const (
	maxActionItems      = 5
	maxDescriptionWords = 14
	// inheritWindow: how many utterances back a vague "I'll do it tomorrow"
	// may look for the task it refers to.
	inheritWindow = 3
	// topicOverlap: two items whose content words overlap this much (of the
	// smaller set) are one topic, and only one is kept.
	topicOverlap = 0.67
)

// task is an action item being built.
type task struct {
	verb  string // stem of the first word
	desc  string
	topic []string // content stems, for the one-item-per-topic rule
	due   *time.Time
	utt   int // the utterance it came from
}

// Commitment patterns, matched after the subject ("I", "we") and any
// adverbs. Longer patterns come first.
var userModals = [][]string{
	{"am", "going", "to"}, {"am", "gonna"}, {"need", "to"}, {"needa"}, {"have", "to"}, {"got", "to"},
	{"have", "got", "to"}, {"have", "gotta"}, {"gotta"}, {"must"}, {"should"}, {"will", "need", "to"}, {"will", "have", "to"}, {"will"},
	{"plan", "to"}, {"am", "planning", "to"}, {"am", "supposed", "to"}, {"ought", "to"},
	{"promised", "to"}, {"have", "promised", "to"}, {"am", "meant", "to"},
}

// weakModals commit only when a time is named: "I want to finish it by
// Friday" is a plan, "I want to travel more" a wish.
var weakModals = [][]string{{"want", "to"}, {"would", "like", "to"}, {"wanna"}, {"can"}}

// expandSubject rewrites a contracted subject into words the modal tables
// match: "i'll" → i will, "i'm" → i am, "i've" → i have.
func expandSubject(w string) (subject string, rest []string) {
	switch w {
	case "i", "we":
		return w, nil
	case "i'll", "we'll":
		return w[:len(w)-3], []string{"will"}
	case "i'm", "we're":
		return w[:strings.IndexByte(w, '\'')], []string{"am"}
	case "i've", "we've":
		return w[:len(w)-3], []string{"have"}
	case "i'd", "we'd":
		return w[:len(w)-2], []string{"would"}
	}
	return "", nil
}

// interAdverbs may sit between subject and modal, or open a task body.
var interAdverbs = lexicon.NewSet(`really just also still definitely probably totally seriously actually
	absolutely certainly literally honestly finally quickly first then maybe def kinda
	really so now already both again`)

// commitment finds "I/we + modal" in ws[a:b] and returns where the task
// body starts. Only the user's clauses are passed in; "we" counts because
// the user is among us.
func commitment(ws []cword, a, b int, timed bool) (body int, ok bool) {
	for k := a; k < b; k++ {
		subj, pre := expandSubject(ws[k].lower)
		if subj == "" {
			continue
		}
		if k > a && ws[k-1].is(wcQuestionAux) {
			continue // "do I need to", "should I"
		}
		j := k + 1
		for j < b && ws[j].is(wcInterAdverb) {
			j++
		}
		var buf [4]string
		seq := append(buf[:0], pre...)
		for m := j; m < b && len(seq) < 4; m++ {
			seq = append(seq, ws[m].lower)
		}
		for _, table := range [][][]string{userModals, weakModals} {
			for _, p := range table {
				if !prefixOf(seq, p) {
					continue
				}
				if containsSeqs(weakModals, p) && !timed {
					continue
				}
				n := len(p) - len(pre)
				if n < 0 {
					continue
				}
				return j + n, true
			}
		}
	}
	return 0, false
}

func prefixOf(seq, p []string) bool {
	if len(seq) < len(p) {
		return false
	}
	for i := range p {
		if seq[i] != p[i] {
			return false
		}
	}
	return true
}

func containsSeqs(table [][]string, p []string) bool {
	for _, q := range table {
		if len(q) == len(p) && prefixOf(q, p) {
			return true
		}
	}
	return false
}

var questionAux = lexicon.NewSet(`do does did should shall will would can could must am is are have has was were`)

// selfReminders are commitments without a modal: "remind me to", "don't
// let me forget to", "note to self", "let me".
var selfReminders = [][]string{
	{"reminder", "to", "myself"}, {"note", "to", "myself"},
	{"don't", "let", "me", "forget", "to"}, {"do", "not", "let", "me", "forget", "to"},
	{"don't", "let", "me", "forget"}, {"remind", "me", "to"}, {"remind", "me"},
	{"please", "remind", "me", "to"}, {"please", "remind", "me"},
	{"note", "to", "self"}, {"reminder", "to", "self"}, {"reminder", "to"}, {"let", "me"},
}

// askedReminders ask the other speaker to remind the user: the task is the
// user's, though the sentence is a question ("Can you remind me to call
// Grandma on Sunday?").
var askedReminders = [][]string{
	{"can", "you", "remind", "me", "to"}, {"could", "you", "remind", "me", "to"},
	{"would", "you", "remind", "me", "to"}, {"will", "you", "remind", "me", "to"},
	{"can", "you", "please", "remind", "me", "to"}, {"could", "you", "please", "remind", "me", "to"},
}

// selfOnly reminders count only in a memo recorded alone: in company,
// "don't forget to…" is said to someone else.
var selfOnly = [][]string{
	{"don't", "forget", "to"}, {"do", "not", "forget", "to"}, {"remember", "to"},
	{"need", "to"}, {"gotta"}, {"have", "to"}, {"got", "to"}, {"todo"}, {"to", "do"},
}

// requests are what others say to ask the user for something.
var requests = [][]string{
	{"can", "you", "please"}, {"could", "you", "please"}, {"would", "you", "please"},
	{"can", "you", "also"}, {"could", "you", "also"},
	{"any", "chance", "you", "could"}, {"any", "chance", "you", "can"}, {"do", "you", "think", "you", "could"},
	{"is", "there", "any", "way", "you", "could"},
	{"can", "you"}, {"could", "you"}, {"would", "you"}, {"will", "you"}, {"can", "u"},
	{"would", "you", "be", "able", "to"}, {"are", "you", "able", "to"},
	{"i", "need", "you", "to"}, {"i", "want", "you", "to"}, {"i'd", "like", "you", "to"},
	{"you", "need", "to"}, {"you", "have", "to"}, {"you've", "got", "to"}, {"you", "gotta"},
	{"you", "must"}, {"don't", "forget", "to"}, {"do", "not", "forget", "to"},
	{"let's", "have", "you"}, {"the", "action", "item", "for", "you", "is", "to"}, {"action", "item", "for", "you", "is", "to"},
	{"remember", "to"}, {"make", "sure", "you"}, {"make", "sure", "to"}, {"be", "sure", "to"},
	{"please"},
}

// recalled are others reminding the user of a promise.
var recalled = [][]string{
	{"you", "said", "you'd"}, {"you", "said", "you", "would"}, {"you", "promised", "to"},
	{"you", "promised", "you'd"}, {"you", "were", "going", "to"}, {"you", "were", "supposed", "to"},
}

// matchAt returns the length of the first pattern of table at ws[k:b].
func matchAt(ws []cword, k, b int, table [][]string) int {
	for _, p := range table {
		if k+len(p) <= b && hasSeq(ws[:b], k, p...) {
			return len(p)
		}
	}
	return 0
}

// stativeVerbs never make tasks: "I'll be there", "we'll see", "I should
// have", "I'll need a minute".
var stativeVerbs = lexicon.NewSet(`be see think guess bet miss forget love like know need wait stay hope
	believe imagine hear feel say mean wonder die survive suppose am is are have`)

// nameOnlyVerbs make no task when their only object is a person: "talk to
// you later", "let you know", "see you", "get back to you".
var nameOnlyVerbs = lexicon.NewSet(`talk speak chat catch see let tell join get meet ping`)

// taskVerbs open a note-to-self imperative in a memo ("Call the bank").
var taskVerbs = lexicon.NewSet(`call email e-mail text send buy pick return book pay schedule renew cancel order
	fix clean submit print mail post bring grab drop finish file sign reply write update confirm
	water feed wash charge refill reserve register ask tell check review prepare draft apply
	research contact invite replace move clear follow find get make take put download install
	cook bake organize organise give redirect forward collect mow paint repair tidy vacuum sort wrap
	plant prune rake trim empty iron fold hang measure reach restart reboot reset fill
	compare deposit activate complete arrange chase hire borrow pack ship`)

// actionItems extracts the user's tasks from the dialogue. Clauses that
// yielded a task are recorded on their utterance, so that the event
// extractor does not read "call the dentist tomorrow morning" as a plan.
func (dl *dialogue) actionItems(tm timing) []task {
	var tasks []task
	var lastAt *time.Time // the last time said, for "by then"
	// the last day said (a date or a weekday), and where, for "at six then"
	var lastDay *time.Time
	lastDayAt := -10
	// the last deadline said by itself (no task of its own), and where
	var lastDeadline *time.Time
	lastDeadlineAt := -10
	// the time of a to-do list's head ("things to do today"), and where
	var headDue *time.Time
	headAt := -10
	for i := range dl.utts {
		u := &dl.utts[i]
		if lt := dl.listTasks(i, tm); len(lt) > 0 {
			tasks = append(tasks, lt...)
			continue
		}
		ws := u.words
		used := make([]bool, len(ws))
		cls := u.clauses
		first := skipDiscourse(ws, 0, len(ws))
		question := u.question && first < len(ws) && (ws[first].is(wcQuestionAux) || inSet(whWords, ws[first].lower))
		vocative := vocativeOf(ws)
		for ci, cl := range cls {
			a, b := cl[0], cl[1]
			said, timed := tm.due(ws, a, b, used)
			clockThen := false
			if said != nil {
				if cc := scanCues(ws, a, b, tm.ref, nil); cc.date && !cc.past {
					lastDay, lastDayAt = said, i
				} else if cc.clock && !cc.date && lastDay != nil && i > lastDayAt && i-lastDayAt <= referentWindow && endsWithThen(ws, a, b) {
					clockThen = true
				}
			}
			body, kind := dl.findTask(i, ws, cls, ci, question, vocative, timed)
			collect := "" // the task a visit is for: fetching a thing said ready before
			if v := firstBodyWord(ws, body, b, used); kind != taskNone && inSet(travelVerbs, wordAt(ws, v)) && inSet(travelEnds, wordAt(ws, v+1)) {
				// "we can drive to evanston on saturday": a trip, not a task
				kind = taskNone
			}
			if kind != taskNone && destination(ws, firstBodyWord(ws, body, b, used), b) {
				// "I'm going to Chicago next week for work": where to, not a deed
				kind = taskNone
			}
			if kind != taskNone && inSet(attendanceVerbs, wordAt(ws, firstBodyWord(ws, body, b, used))) {
				// "I'll come and see you", "can you join a call with their
				// CTO?": being somewhere is a plan (an event when dated),
				// not a thing to do, unless it is for one ("I'll come by
				// around seven to pick it up")
				if p := purposeTask(ws, body, b); p > 0 {
					body = p
				} else if np, verb := dl.readyThing(i); np != "" && u.isUser && kind == taskCommit && comeFor(ws, firstBodyWord(ws, body, b, used)) {
					collect = verb + " the " + np
				} else {
					kind = taskNone
				}
			}
			if kind != taskNone && timed && attendsEvent(ws, firstBodyWord(ws, body, b, used), b) {
				// "can you do the parent-teacher conference on Tuesday at
				// 4:10?": being at a dated meeting is a plan, not a task
				kind = taskNone
			}
			if kind != taskNone && u.isUser && goalSaid(ws, a, b) && matchAt(ws, taskOpener(ws, a, body)+1, b, weakModals) > 0 {
				// "i want to read more history this winter": a goal (a
				// memory), not a thing to tick off
				kind = taskNone
			}
			if kind != taskNone && sociable(ws, firstBodyWord(ws, body, b, used), b) {
				// "we should get a beer when you're in town": meeting up, a
				// plan when dated, never a thing to do
				kind = taskNone
			}
			if kind != taskNone && watchOnly(ws, firstBodyWord(ws, body, b, used)) {
				// "I'll look out for the link", "I'll wait for your email":
				// waiting for something is no deed
				kind = taskNone
			}
			if kind != taskNone && (scanCues(ws, a, b, tm.ref, nil).recurring || habitual(ws, a, b) || habitChange(ws, firstBodyWord(ws, body, b, used))) {
				// "get up every hour and stretch", "do the exercises every
				// morning": a habit advised, not a thing to do and tick off
				kind = taskNone
			}
			if kind == taskNone && u.isUser && said != nil && todoHead(ws, a, b) {
				headDue, headAt = said, i
			}
			if kind == taskNone && u.isUser {
				if t, ok := dl.mustBeDone(ws, a, b, used, tm); ok {
					// "the electricity bill has to be paid by the end of the month"
					tasks = append(tasks, t)
					u.tasks = append(u.tasks, a)
					u.taskVerbs = append(u.taskVerbs, t.verb)
					continue
				}
			}
			if kind == taskNone {
				if said != nil {
					lastAt = said
				}
				if u.isUser && said != nil && hasDeadlineWord(ws, a, b) && !hasDuelessTask(tasks, i) {
					// "Registration's due on the 15th": a deadline is a task
					if subj := deadlineSubject(ws, a, b); subj != "" {
						tasks = append(tasks, task{verb: "", desc: subj + " due", topic: topicOf(subj), due: said, utt: i})
						continue
					}
				}
				if due, _ := tm.due(ws, a, b, nil); due != nil && (hasDeadlineWord(ws, a, b) || byCue(ws, a, b)) && !u.question && !hasAny(ws, a, b, readyWords) && !hasTaskOf(tasks, i) {
					// a deadline said in a sentence with a task of its own is
					// that task's ("pay the council tax it's … due on the first")
					lastDeadline, lastDeadlineAt = due, i
				}
				if due, _ := tm.due(ws, a, b, nil); due != nil && (hasDeadlineWord(ws, a, b) || mustBeDoneBy(ws, a, b) || needItBy(ws, a, b) || u.isUser && timeStatement(ws, a, b)) {
					// "…, they're due Monday": the deadline of this sentence's task
					given := false
					for k := len(tasks) - 1; k >= 0 && tasks[k].utt == i; k-- {
						if tasks[k].due == nil {
							tasks[k].due = due
							given = true
							break
						}
					}
					if !given && (hasDeadlineWord(ws, a, b) || mustBeDoneBy(ws, a, b) || needItBy(ws, a, b)) && !hasTaskOf(tasks, i) {
						// "I'll write the post about the year in review." …
						// "Drafts due on the first of December, please.": a
						// deadline said after the commitments is theirs
						for k := len(tasks) - 1; k >= 0 && tasks[k].utt >= i-inheritWindow; k-- {
							if tasks[k].due == nil {
								tasks[k].due = due
							}
						}
					}
				}
				continue
			}
			if kind == taskCommit && u.isUser && tm.known() {
				if gt := dl.gappedTasks(i, ws, body, b, used, tm); len(gt) == 2 {
					// "i'll send you the pricing today and the questionnaire
					// by wednesday": one verb, two things, two times
					tasks = append(tasks, gt...)
					u.tasks = append(u.tasks, a)
					u.taskVerbs = append(u.taskVerbs, wordAt(ws, firstBodyWord(ws, body, b, used)))
					continue
				}
			}
			due := tm.taskDue(ws, a, taskOpener(ws, a, body), b, used, said)
			if d := tm.frontedDay(ws, cls, ci); due != nil && d != nil {
				due = d
			}
			if ref, before := thenRef(ws, a, b, used); due == nil && lastAt != nil && ref {
				due = lastAt
				if before {
					due = dayBeforeThen(*lastAt, tm.loc)
				}
			}
			if clockThen && due != nil {
				// "They'll be ready next Tuesday." … "I'll come around six
				// then": the hour on the day said
				due = onDayOf(*due, *lastDay, tm.loc)
			}
			if due == nil && tm.known() && immediate(ws, body, b, used) {
				// "I'll send the invite now", "I'll restart it right after
				// this call": as soon as possible, the reference's two hours
				at := tm.start.Add(asapOffset).UTC()
				due = &at
			}
			if due == nil && u.isUser && headDue != nil && (i == headAt || dl.single() && i == headAt+1) {
				// "things to do today: pick up the dry cleaning, …"
				due = headDue
			}
			if due == nil && u.isUser && lastDeadline != nil && i-lastDeadlineAt <= 1 {
				// "we need the deck final by the first" "I'll own the
				// financial slides": the deadline just said is the task's
				due = lastDeadline
			}
			if said != nil {
				lastAt = said
			}
			if kind == taskNoteToSelf && body >= b {
				if ci+1 >= len(cls) {
					continue
				}
				// "Note to self, pick up oat milk…": the task is the next clause
				a, b = cls[ci+1][0], cls[ci+1][1]
				body = a
				if f := skipDiscourse(ws, a, b); f >= b || ws[f].is(wcDeterminer) || ws[f].is(wcSubjectPronoun) {
					continue
				}
				if d, _ := tm.due(ws, a, b, used); d != nil {
					due = d
				}
			}
			owner := speakerName(u.speaker)
			if u.isUser {
				owner = dl.addressee(i)
			}
			desc, topic, vague := describe(ws, body, b, used, u.isUser, owner)
			if collect != "" {
				desc, topic, vague = collect, topicOf(collect), false
			}
			if fb := firstBodyWord(ws, body, b, used); kind == taskCommit && u.isUser && pronounObject(ws, fb) && inSet(contactVerbs, ws[fb].lower) {
				if d, _ := dl.offeredBefore(i, ws, cls, ci, used, owner); d != "" {
					// "i can ask ops for those i'll ping them right after
					// standup": the deed offered, done when the contact says
					desc, topic, vague = d, topicOf(d), false
				}
			}
			if kind == taskCommit && u.isUser {
				if d, tp, ok := dl.frontedTask(i, ws, a, body, b, used, u.isUser, owner); ok {
					desc, topic, vague = d, tp, false
				}
			}
			switch {
			case desc == "":
			case vague:
				verb := wordAt(ws, firstBodyWord(ws, body, b, used))
				if due != nil && (verb == "have" || !inSet(stativeVerbs, verb)) && inheritDue(tasks, i, due) {
					break
				}
				if d, tp := dl.askedDeed(i, ws, firstBodyWord(ws, body, b, used)); d != "" {
					// "Have you booked the train?" "Not yet, I need to do that this week."
					tasks = append(tasks, task{verb: lexicon.Stem(strings.Fields(strings.ToLower(d))[0]), desc: d, topic: tp, due: due, utt: i})
					u.tasks = append(u.tasks, a)
					u.taskVerbs = append(u.taskVerbs, verb)
					break
				}
				if d, np := dl.resolvedObject(i, a, desc, verb, ws[firstBodyWord(ws, body, b, used):b]); d != "" {
					// "the invitations will be printed by Wednesday" … "I'll pick them up"
					t := task{verb: lexicon.Stem(verb), desc: d, topic: topicOf(np), due: due, utt: i}
					if k := sameThingAsked(tasks, t); k >= 0 {
						// "can you get the kids today?" … "I'll pick them up at
						// five fifteen": the answer restates the request
						if t.due == nil {
							t.due = tasks[k].due
						}
						tasks[k] = t
						break
					}
					tasks = append(tasks, t)
					u.tasks = append(u.tasks, a)
					u.taskVerbs = append(u.taskVerbs, verb)
					break
				}
				// "we're out of toilet paper" … "I'll grab some tomorrow"
				if np := dl.shoppingReferent(i, a); np != "" && inSet(shoppingVerbs, verb) {
					desc = capitalise(verb) + " " + np
					tasks = append(tasks, task{verb: lexicon.Stem(verb), desc: desc, topic: topicOf(np), due: due, utt: i})
					u.tasks = append(u.tasks, a)
					u.taskVerbs = append(u.taskVerbs, verb)
				}
			default:
				fb := firstBodyWord(ws, body, b, used)
				verb := wordAt(ws, fb)
				if pronounObject(ws, fb) {
					// "I'll grab it on the way home": the way home says when, "it" what
					if d, np := dl.resolvedObject(i, a, desc, verb, ws[fb:b]); d != "" {
						desc, topic = d, append(topic, topicOf(np)...)
					}
				}
				t := task{verb: lexicon.Stem(verb), desc: desc, topic: topic, due: due, utt: i}
				if k := dl.requestAccepted(tasks, t, ws, a, b); k >= 0 {
					// "can you look into hotels for the offsite" "sure i'll get
					// a few options by the end of next week": when, not another task
					tasks[k].due = t.due
					break
				}
				if k := dl.instructionAnswered(tasks, t); k >= 0 {
					// "Bring two payslips and photo ID." "Okay, I'll dig out
					// the payslips on Saturday.": the user's own deed for it
					if t.due == nil {
						t.due = tasks[k].due
					}
					tasks[k] = t
				} else {
					tasks = append(tasks, t)
				}
				u.tasks = append(u.tasks, a)
				u.taskVerbs = append(u.taskVerbs, verb)
			}
		}
	}
	dl.shareDues(tasks, tm)
	return mergeTopics(dl.doneInCall(tasks))
}

// travelVerbs with travelEnds after them go somewhere ("drive to
// Evanston", "fly home"); with an object they are tasks ("drive the kids").
var travelVerbs = lexicon.NewSet(`drive fly travel walk ride cycle`)

var travelEnds = lexicon.NewSet(`to there back home over down up out`)

// attendanceVerbs say where someone will be, not what they will do.
var attendanceVerbs = lexicon.NewSet(`come join attend visit meet see go stop stay work skip swing head`)

// purposeTask is where the task a visit is for starts ("I'll come by
// around seven to pick it up"), 0 when it is for none.
func purposeTask(ws []cword, a, b int) int {
	for j := a + 1; j+1 < b; j++ {
		if ws[j].lower == "to" && ws[j+1].is(wcTaskVerb) {
			return j + 1
		}
	}
	return 0
}

// sameThingAsked is the task just before whose topic holds all of t's
// (t names the same thing, maybe more briefly), -1 when there is none.
func sameThingAsked(tasks []task, t task) int {
	for k := len(tasks) - 1; k >= 0 && tasks[k].utt >= t.utt-referentWindow; k-- {
		if len(t.topic) > 0 && allIn(t.topic, tasks[k].topic) {
			return k
		}
	}
	return -1
}

// instructionAnswered is the task another speaker gave the user in the
// turn just before that the user's own task t answers with another deed
// on a thing they share; -1 when none.
func (dl *dialogue) instructionAnswered(tasks []task, t task) int {
	if !dl.utts[t.utt].isUser {
		return -1
	}
	for k := len(tasks) - 1; k >= 0 && tasks[k].utt >= t.utt-1; k-- {
		if tasks[k].utt == t.utt || dl.utts[tasks[k].utt].isUser || tasks[k].verb == t.verb {
			continue // the same deed said again keeps its first wording (mergeTopics)
		}
		for _, w := range t.topic {
			if slices.Contains(tasks[k].topic, w) {
				return k
			}
		}
	}
	return -1
}

// requestAccepted is the request another speaker made in the turn just
// before, without a time, that the user's task t accepts by saying when:
// the answer opens with a yes, shares nothing with the request and adds
// nothing ("also", "too"); -1 when none.
func (dl *dialogue) requestAccepted(tasks []task, t task, ws []cword, a, b int) int {
	if t.due == nil || !dl.utts[t.utt].isUser || len(ws) == 0 || !inSet(agreeWords, ws[0].lower) {
		return -1
	}
	for j := a; j < b; j++ {
		if w := ws[j].lower; w == "also" || w == "too" || w == "and" {
			return -1
		}
	}
	for k := len(tasks) - 1; k >= 0 && tasks[k].utt == t.utt-1; k-- {
		if dl.utts[tasks[k].utt].isUser || tasks[k].due != nil {
			continue
		}
		for _, w := range t.topic {
			if slices.Contains(tasks[k].topic, w) {
				return -1
			}
		}
		return k
	}
	return -1
}

func allIn(xs, ys []string) bool {
	for _, x := range xs {
		if !slices.Contains(ys, x) {
			return false
		}
	}
	return true
}

// sociable: the task at ws[v] is having a meal or a drink together ("get
// a beer", "grab lunch", "have coffee") or catching up.
func sociable(ws []cword, v, b int) bool {
	w := wordAt(ws, v)
	if hasSeq(ws, v, "catch", "up") || hasSeq(ws, v, "hang", "out") {
		return true
	}
	if w != "get" && w != "grab" && w != "have" && w != "go" {
		return false
	}
	k := v + 1
	if inSet(determiners, wordAt(ws, k)) || wordAt(ws, k) == "for" {
		k++
	}
	return k < b && inSet(sharedTreats, ws[k].lower)
}

// sharedTreats are had together: a meal or a drink.
var sharedTreats = lexicon.NewSet(`beer beers pint pints drink drinks coffee coffees tea lunch dinner breakfast brunch
	bite food meal`)

// habitual: "every hour", "each night", "every other day", "twice a day".
func habitual(ws []cword, a, b int) bool {
	for j := a; j+1 < b; j++ {
		w, n := ws[j].lower, ws[j+1].lower
		if n == "other" {
			n = wordAt(ws, j+2)
		}
		if (w == "every" || w == "each") && (unitOf(n+"s") != 0 || unitOf(n) != 0 || dayPartHour(n) > 0 || weekdayOf(n) >= 0 || n == "night") {
			return true
		}
		if (w == "twice" || w == "once") && (n == "a" || n == "per") && unitOf(wordAt(ws, j+2)+"s") != 0 {
			return true
		}
	}
	return false
}

// contactVerbs reach a person: "I'll ping them".
var contactVerbs = lexicon.NewSet(`ping email text call message ring phone contact chase`)

// offeredBefore is the deed an earlier clause of the same utterance offered
// with "I can" ("i can ask ops for those"), described, and its verb; "" when
// none was.
func (dl *dialogue) offeredBefore(i int, ws []cword, cls [][2]int, ci int, used []bool, owner string) (string, string) {
	for k := ci - 1; k >= 0 && k >= ci-2; k-- {
		a, b := cls[k][0], cls[k][1]
		s := skipDiscourse(ws, a, b)
		if !(hasSeq(ws, s, "i", "can") || hasSeq(ws, s, "we", "can")) || s+2 >= b || !isImperative(ws, s+2, b) {
			continue
		}
		desc, _, _ := describe(ws, s+2, b, used, true, owner)
		if w := ws[b-1].lower; w == "those" || w == "these" || w == "them" || w == "it" {
			// "ask ops for those": the things just named
			if np := dl.definiteReferent(i, a, w != "it"); np != "" {
				desc += " for the " + np
				if ws[b-2].lower != "for" {
					desc = strings.TrimSuffix(desc, " for the "+np) + " the " + np
				}
			}
		}
		return desc, ws[s+2].lower
	}
	return "", ""
}

// watchOnly: the body at ws[v] only waits or watches for something ("look
// out for the link", "keep an eye out for the parcel", "wait for the call").
func watchOnly(ws []cword, v int) bool {
	return hasSeq(ws, v, "look", "out", "for") || hasSeq(ws, v, "watch", "out", "for") || hasSeq(ws, v, "keep", "an", "eye", "out") ||
		hasSeq(ws, v, "wait", "for") || hasSeq(ws, v, "watch", "for")
}

// habitChange: the body at ws[v] starts or stops a habit ("start going to
// bed earlier", "stop buying coffee out every day", "keep doing the
// exercises"): a resolution, not a thing to do and tick off.
func habitChange(ws []cword, v int) bool {
	switch wordAt(ws, v) {
	case "start", "stop", "keep", "quit":
		n := wordAt(ws, v+1)
		return len(n) > 4 && strings.HasSuffix(n, "ing")
	}
	return false
}

// firstBodyWord skips cue words and adverbs at the start of a task body.
func firstBodyWord(ws []cword, from, to int, used []bool) int {
	for from < to && (used[from] || ws[from].is(wcInterAdverb)) {
		from++
	}
	return from
}

type taskKind int

const (
	taskNone taskKind = iota
	taskCommit
	taskRequest
	taskNoteToSelf
)

var whWords = lexicon.NewSet(`what why how when where who whom which whose`)

// determiners cannot open a task body: "I'm going to the store" is a trip.
var determiners = lexicon.NewSet(`the a an my your his her our their this that these those some`)

// findTask looks for a task of the user in clause ci of utterance i.
func (dl *dialogue) findTask(i int, ws []cword, cls [][2]int, ci int, question bool, vocative string, timed bool) (int, taskKind) {
	u := &dl.utts[i]
	a, b := cls[ci][0], cls[ci][1]
	s := skipDiscourse(ws, a, b)
	if s >= b {
		return 0, taskNone
	}
	if u.isUser {
		if n := matchAt(ws, s, b, askedReminders); n > 0 && s+n < b {
			return s + n, taskCommit
		}
		if question || conditionBefore(ws, a) || hypotheticalBefore(ws, a, s) {
			return 0, taskNone
		}
		if ws[s].lower == "reminder" && s+1 < b && isImperative(ws, s+1, b) {
			// "reminder pay the council tax", as a recogniser writes "Reminder:"
			return s + 1, taskCommit
		}
		if c := afterLeadingCue(ws, s, b); c > s && matchAt(ws, c, b, selfReminders) > 0 {
			s = c // "on Sunday evening remind me to…"
		}
		if n := matchAt(ws, s, b, selfReminders); n > 0 {
			if s+n < b && ws[s].lower == "remind" && (ws[s+n].is(wcDeterminer) || ws[s+n].is(wcSubjectPronoun)) {
				// "remind me the parents evening is thursday at six": a
				// thing to remember, not a deed
				return 0, taskNone
			}
			switch ws[s].lower {
			case "let":
				if s+n >= b || inSet(letMeSkip, ws[s+n].lower) || inSet(stativeVerbs, ws[s+n].lower) {
					return 0, taskNone
				}
			case "note", "reminder":
				if s+n < b && (ws[s+n].is(wcDeterminer) || pastForm(ws[s+n].lower)) {
					// "note to self: the garage code is 4471" is a fact,
					// "note to self talked to priya today" a record
					return 0, taskNone
				}
				return s + n, taskNoteToSelf
			}
			return s + n, taskCommit
		}
		if dl.single() && !u.question {
			if n := matchAt(ws, s, b, selfOnly); n > 0 && s+n < b {
				return s + n, taskCommit
			}
			if isImperative(ws, s, b) {
				return s, taskCommit
			}
			if ws[s].lower == "please" && isImperative(ws, s+1, b) {
				// "please send the report to my manager": the same
				// imperative, said politely
				return s + 1, taskCommit
			}
		}
		body, ok := commitment(ws, a, b, timed)
		if !ok || body >= b || reportedBefore(ws, a, body) || hypotheticalBefore(ws, a, body) ||
			negated(ws, body, b) || ws[body].is(wcDeterminer) || ws[body].is(wcSubjectPronoun) {
			// "i will i've been sleeping badly": a reply, then a new sentence
			return 0, taskNone
		}
		return body, taskCommit
	}
	if n := matchAt(ws, s, b, recalled); n > 0 && dl.userKnown && s+n < b {
		return s + n, taskRequest
	}
	if n := matchAt(ws, s, b, openAsks); n > 0 && s+n < b && !inSet(stativeVerbs, ws[s+n].lower) && dl.takenByUser(i) {
		// "who's going to write up the notes" "i can do that": a task
		// asked of anyone, taken by the user
		return s + n, taskRequest
	}
	if !dl.toUser(i, vocative) {
		return 0, taskNone
	}
	if n := matchAt(ws, s, b, requests); n > 0 && s+n < b {
		if inSet(requestSkip, ws[s+n].lower) || inSet(stativeVerbs, ws[s+n].lower) || forbidden(ws, s+n, b) {
			// "please don't eat after midnight" asks for nothing to be done
			return 0, taskNone
		}
		return s + n, taskRequest
	}
	// an imperative addressed to the user: "Send me the file when you can"
	if (ci == 0 || joinedInstruction(ws, a, s)) && !u.question && isImperative(ws, s, b) {
		return s, taskRequest
	}
	return 0, taskNone
}

// isImperative: the clause opens with a task verb used as a verb ("Call
// the bank"), not as a noun ("Call went well").
func isImperative(ws []cword, s, b int) bool {
	if !ws[s].is(wcTaskVerb) || ws[s].punct != 0 || s+1 >= b {
		return false
	}
	if s > 0 && ws[s-1].punct == 0 && (ws[s-1].is(wcWithDeterminer) || inSet(nounModifiers, ws[s-1].lower)) {
		return false // "so quick update on my end", "the final review": a noun
	}
	next := ws[s+1].lower
	if strings.HasSuffix(next, "'s") || inSet(copulas, wordAt(ws, s+2)) && ws[s+1].punct == 0 {
		return false // "book club is at my place", "book club's on friday": a noun
	}
	return !inSet(questionAux, next) && !inSet(nounFollowers, next)
}

// nounModifiers before a task verb show it is a noun: "quick update",
// "final check", "weekly review".
var nounModifiers = lexicon.NewSet(`quick brief short big small final first last next weekly daily monthly annual
	yearly quarterly little general full another`)

// nounFollowers after a task verb show it was a noun: "call went", "text says".
var nounFollowers = lexicon.NewSet(`went goes says said was were 's looks seems came comes of`)

// letMeSkip: "let me know", "let me think" are no tasks.
var letMeSkip = lexicon.NewSet(`know think see guess tell explain show ask try get go look just repeat
	speak listen grab pull double quickly real`)

// requestSkip: "can you believe it", "could you repeat that" ask no task.
var requestSkip = lexicon.NewSet(`repeat explain speak listen hold hear imagine believe`)

// conditionBefore: an earlier clause of the sentence set a condition ("If
// it rains, I'll…").
func conditionBefore(ws []cword, a int) bool {
	for k := 0; k < a; k++ {
		switch ws[k].lower {
		case "if", "unless", "wish":
			return true
		}
	}
	return false
}

// hypotheticalMarkers before a commitment make it a supposition.
var hypotheticalMarkers = lexicon.NewSet(`if unless wish would could might suppose supposing imagine maybe perhaps`)

func hypotheticalBefore(ws []cword, a, b int) bool {
	for k := a; k < b && k < len(ws); k++ {
		if inSet(hypotheticalMarkers, ws[k].lower) {
			return true
		}
	}
	return false
}

// reportingVerbs before "I should" make it someone else's advice.
var reportingVerbs = lexicon.NewSet(`said says told thinks suggested suggests recommended recommends insists insisted wants`)

func reportedBefore(ws []cword, a, body int) bool {
	for k := max(a, body-6); k < body; k++ {
		if inSet(reportingVerbs, ws[k].lower) {
			return true
		}
	}
	return false
}

// negated: "I will not", "I'll never", "I should have" (a regret, not a task).
func negated(ws []cword, body, b int) bool {
	for k := body; k < b && k < body+2; k++ {
		switch ws[k].lower {
		case "not", "never", "no":
			return true
		case "have", "'ve":
			if k == body && k+1 < b && strings.HasSuffix(ws[k+1].lower, "ed") {
				return true
			}
		}
	}
	return false
}

// vocativeOf returns the name a sentence opens by addressing ("Nadia, can
// you…"), or "".
func vocativeOf(ws []cword) string {
	if len(ws) < 2 || ws[0].punct != ',' || !ws[0].cap {
		return ""
	}
	w := ws[0].lower
	if inSet(stopWords, w) || isFiller(w) || inSet(discourseWords, w) || w == "i" {
		return ""
	}
	return ws[0].text
}

func hasDuelessTask(tasks []task, i int) bool {
	for k := len(tasks) - 1; k >= 0 && tasks[k].utt == i; k-- {
		if tasks[k].due == nil {
			return true
		}
	}
	return false
}

// deadlineSubject is the thing a deadline clause is about: "Registration's
// also due…" → "Registration"; "" when it is a pronoun or missing.
func deadlineSubject(ws []cword, a, b int) string {
	s := skipDiscourse(ws, a, b)
	var words []string
	for k := s; k < b && len(words) < 4; k++ {
		w := ws[k].lower
		base := strings.TrimSuffix(w, "'s")
		if w == "is" || w == "are" || w == "due" || inSet(interAdverbs, w) {
			break
		}
		if inSet(stopWords, base) || inSet(determiners, base) || !hasLetter(base) {
			if len(words) == 0 && (base == "the" || base == "my" || base == "our") {
				continue
			}
			return ""
		}
		words = append(words, strings.TrimSuffix(ws[k].text, "'s"))
		if base != w {
			break
		}
	}
	if len(words) == 0 || len(words) == 1 && strings.EqualFold(words[0], "deadline") || weekdayOf(strings.TrimSuffix(ws[s].lower, "'s")) >= 0 || startsCue(ws, s) {
		// "the deadline is Friday", "Friday's the deadline": the deadline
		// of what was just said
		return ""
	}
	words[0] = capitalise(words[0])
	return strings.Join(words, " ")
}

// thenRef: "by then", "before then", "until then" and a leading "before
// that" point at the last time said.
func thenRef(ws []cword, a, b int, used []bool) (ref, before bool) {
	for k := a + 1; k < b; k++ {
		if ws[k].lower == "then" {
			switch ws[k-1].lower {
			case "by", "before", "until", "till":
				used[k-1], used[k] = true, true
				return true, ws[k-1].lower == "before"
			}
		}
	}
	// "i need to send them the doc before that, oh and…": "before that"
	// closing the task points back too
	for k := a + 1; k+1 < b; k++ {
		if hasSeq(ws, k, "before", "that") && (k+2 >= b || ws[k+1].punct != 0 || isFiller(ws[k+2].lower) || inSet(connectives, ws[k+2].lower)) {
			used[k], used[k+1] = true, true
			return true, true
		}
	}
	// "We'll regroup next Tuesday." "I'll have the numbers ready for
	// that.": ready for the time just said
	if k := b - 3; k > a && (hasSeq(ws, k, "ready", "for", "that") || hasSeq(ws, k, "ready", "for", "then")) {
		used[k+1], used[k+2] = true, true
		return true, false
	}
	// "The presentation is on Thursday. Before that I need to finish the
	// slides": "before that" said first, pointing back
	if s := skipDiscourse(ws, a, b); hasSeq(ws, s, "before", "that") && (ws[s+1].punct != 0 || inSet(subjectPronouns, wordAt(ws, s+2))) {
		used[s], used[s+1] = true, true
		return true, true
	}
	return false, false
}

// dayBeforeThen: "before then" of a day said without its hour ("the deck on
// thursday" … "i'll update the slide before then") ends the day before, as
// "before Wednesday" does; of a time with its hour, it is that time.
func dayBeforeThen(at time.Time, loc *time.Location) *time.Time {
	l := at.In(loc)
	if l.Hour() != 23 || l.Minute() != 59 {
		return &at
	}
	d := time.Date(l.Year(), l.Month(), l.Day()-1, 23, 59, 0, 0, loc).UTC()
	return &d
}

// timeStatement: a clause that only says when ("that's on the first",
// "it's Thursday"), dating the task said just before it.
func timeStatement(ws []cword, a, b int) bool {
	s := skipDiscourse(ws, a, b)
	switch wordAt(ws, s) {
	case "that's", "it's":
		return true
	case "which", "that", "it":
		return wordAt(ws, s+1) == "is" || wordAt(ws, s+1) == "'s"
	}
	return false
}

func hasDeadlineWord(ws []cword, a, b int) bool {
	for k := a; k < b; k++ {
		if w := strings.TrimSuffix(ws[k].lower, "'s"); w == "due" || w == "deadline" {
			return true
		}
	}
	return false
}

func hasTaskOf(tasks []task, i int) bool {
	return len(tasks) > 0 && tasks[len(tasks)-1].utt == i
}

// inheritDue gives a vague commitment's time ("I'll do it tonight") to the
// most recent task without one.
func inheritDue(tasks []task, i int, due *time.Time) bool {
	for k := len(tasks) - 1; k >= 0 && tasks[k].utt >= i-inheritWindow; k-- {
		if tasks[k].due == nil {
			tasks[k].due = due
			return true
		}
	}
	return false
}

// shoppingVerbs take "some" for the thing just said to be missing.
var shoppingVerbs = lexicon.NewSet(`grab get buy pick order`)

// shoppingReferent finds what "some" stands for: the thing said to be out
// of or needed ("we're out of X", "we need more X") earlier in the sentence
// or in the two utterances before.
func (dl *dialogue) shoppingReferent(i, before int) string {
	for j := i; j >= 0 && j >= i-2; j-- {
		ws := dl.utts[j].words
		end := len(ws)
		if j == i {
			end = before
		}
		for k := 0; k < end; k++ {
			n := 0
			switch {
			case hasSeq(ws, k, "out", "of"):
				n = 2
			case hasSeq(ws, k, "need", "more"), hasSeq(ws, k, "need", "some"), hasSeq(ws, k, "no", "more"):
				n = 2
			}
			if n == 0 {
				continue
			}
			var np []string
			for m := k + n; m < end && len(np) < 3; m++ {
				if ws[m].is(wcStop) {
					break
				}
				np = append(np, ws[m].text)
				if ws[m].punct != 0 {
					break
				}
			}
			if len(np) > 0 {
				return strings.Join(np, " ")
			}
		}
	}
	return ""
}

func topicOf(np string) []string {
	var out []string
	for _, w := range strings.Fields(strings.ToLower(np)) {
		if isTaskContent(w) {
			out = append(out, lexicon.Stem(w))
		}
	}
	return out
}

// leadingNoise opens a task body without belonging to the task.
var leadingNoise = [][]string{
	{"go", "ahead", "and"}, {"try", "to"}, {"try", "and"}, {"remember", "to"}, {"make", "sure", "to"},
	{"be", "sure", "to"}, {"to"}, {"please"}, {"go", "and"},
	// a second modal after the first: "I'm gonna need to", "I'll have to"
	{"need", "to"}, {"have", "to"}, {"be", "able", "to"},
}

// trailingNoise closes a body without belonging to the task.
var trailingNoise = lexicon.NewSet(`please okay ok alright right too then though anyway again later soon
	sometime first now yet myself yourself like yeah`)

// trailingPhrases close a body without belonging to the task.
var trailingPhrases = [][]string{
	{"as", "well"}, {"or", "something"}, {"or", "so"}, {"you", "know"}, {"if", "possible"},
	{"for", "sure"}, {"real", "quick"}, {"at", "some", "point"}, {"for", "me"},
}

// describe turns the body ws[from:to] into a task description: cue words
// dropped, filler trimmed, pronouns pointed at the right people, first
// letter capitalised. vague reports a description with no content beyond
// its verb ("Do it", "Call her", "Let you know").
func describe(ws []cword, from, to int, used []bool, byUser bool, other string) (desc string, topic []string, vague bool) {
	for {
		from = firstBodyWord(ws, from, to, used)
		n := matchAt(ws, from, to, leadingNoise)
		if n == 0 {
			break
		}
		from += n
	}
	for trimmed := true; trimmed; {
		trimmed = false
		for to > from && (used[to-1] || inSet(trailingNoise, ws[to-1].lower)) {
			to--
			trimmed = true
		}
		for _, p := range trailingPhrases {
			if to-len(p) > from && hasSeq(ws[:to], to-len(p), p...) && (p[1] != "me" || byUser) {
				to -= len(p)
				trimmed = true
			}
		}
	}
	if from >= to {
		return "", nil, false
	}
	to = nextRequest(ws, from, to)
	to = nextThought(ws, from, to)
	verb := ws[from].lower
	words := make([]string, 0, min(to-from, maxDescriptionWords))
	content, names := 0, 0
	for k := from; k < to && len(words) < maxDescriptionWords; k++ {
		if used[k] {
			continue
		}
		w := ws[k]
		text, isName := swapPronoun(w, byUser, other)
		if w.lower == "you" && k > from && ws[k-1].lower == "thank" {
			text, isName = w.text, false // "a thank you post" thanks no one listening
		}
		if w.punct == ',' && k+1 < to {
			text += ","
		}
		words = append(words, text)
		switch {
		case k == from:
		case isName:
			names++
		case isTaskContent(w.lower):
			content++
			topic = append(topic, lexicon.Stem(strings.TrimSuffix(w.lower, "'s")))
		}
	}
	// don't end on a dangling function word or a filler ("Send the report to", "… home oh")
	for len(words) > 1 {
		last := strings.ToLower(strings.TrimSuffix(words[len(words)-1], ","))
		if !inSet(stopWords, last) && !isFiller(last) || inSet(keepAtEnd, last) {
			break
		}
		words = words[:len(words)-1]
	}
	words[len(words)-1] = strings.TrimSuffix(words[len(words)-1], ",")
	words[0] = capitalise(words[0])
	// "Text it to Speaker 1" names a person but not the thing: still vague
	vagueObject := from+1 < to && inSet(vagueObjects, ws[from+1].lower)
	stative := inSet(stativeVerbs, verb) && !(verb == "have" && resultAfter(ws, from+1, to))
	vague = stative || content == 0 && (names == 0 || vagueObject || inSet(nameOnlyVerbs, verb))
	return strings.Join(words, " "), topic, vague
}

// nextRequest ends a task body ws[from:to] where "please" opens the next
// request ("send them the budget report please remind the team"); "please"
// before a cue or at the end stays and is trimmed as noise.
func nextRequest(ws []cword, from, to int) int {
	for k := from + 1; k+1 < to; k++ {
		if ws[k].lower == "please" && ws[k-1].punct == 0 && !ws[k+1].is(wcStop) && !inSet(cueStarts, ws[k+1].lower) {
			for k > from+1 && inSet(connectives, ws[k-1].lower) {
				k--
			}
			return k
		}
	}
	return to
}

// keepAtEnd are function words that can end a task ("Pick up the kids",
// "Call them back").
var keepAtEnd = lexicon.NewSet(`up out back in on off over down away together`)

// isTaskContent: a word that says what the task is about.
func isTaskContent(w string) bool {
	if !hasLetterOrDigit(w) || inSet(stopWords, w) || isFiller(w) || inSet(keywordStopWords, w) {
		return false
	}
	return !inSet(vagueObjects, w)
}

var vagueObjects = lexicon.NewSet(`them it that this those these some stuff thing things one ones both all
	once everything more`)

// swapPronoun points pronouns at the right people. In a request, "me" is
// the speaker who asked; in the user's own commitment, "you" is the person
// the user is talking to ("them" when that is unclear). isName reports a
// person named in place of the pronoun.
func swapPronoun(w cword, byUser bool, other string) (string, bool) {
	if byUser {
		switch w.lower {
		case "you":
			if other == "" {
				return "them", false
			}
			return other, true
		case "your", "yours":
			if other == "" {
				return "their", false
			}
			return other + "'s", true
		}
		return w.text, false
	}
	switch w.lower {
	case "me", "us":
		return other, true
	case "my", "mine", "our", "ours":
		return other + "'s", true
	}
	return w.text, false
}

// mergeTopics keeps one item per topic: a request and the user's answer
// to it ("can you send the mockups by Thursday?" "I'll send them Friday
// morning") are one task. The earlier wording is kept; the later due date,
// when there is one, wins because it is the user's own.
func mergeTopics(tasks []task) []task {
	out := tasks[:0]
	for _, t := range tasks {
		merged := false
		for k := range out {
			if sameTopic(out[k], t) || sameDeedSameTime(out[k], t) || sameWordsNextTurn(out[k], t) {
				if t.due != nil {
					out[k].due = t.due
				}
				merged = true
				break
			}
		}
		if !merged {
			out = append(out, t)
		}
	}
	if len(out) > maxActionItems {
		out = out[:maxActionItems]
	}
	return out
}

// sameDeedSameTime: a deed said again in the next turn for the same time,
// with nothing but a person as its object ("can you call me back at two
// thirty" "sure I'll call you at two thirty"), is the one task.
func sameDeedSameTime(x, y task) bool {
	return x.verb != "" && x.verb == y.verb && x.due != nil && y.due != nil && x.due.Equal(*y.due) &&
		y.utt-x.utt <= 1 && (len(x.topic) == 0 || len(y.topic) == 0)
}

// sameWordsNextTurn: the same deed in the same words in the next turn is
// the one task, its time the one said last: "can you call me back this
// afternoon" "sure, I'll call you back at 3" settles the hour asked for.
func sameWordsNextTurn(x, y task) bool {
	return x.verb != "" && x.verb == y.verb && y.utt-x.utt == 1 && strings.EqualFold(x.desc, y.desc)
}

// sameTopic: the two tasks share most of their content words and either
// the verb ("send the mockups" / "send them Friday") or at least two words.
func sameTopic(x, y task) bool {
	a, b := x.topic, y.topic
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	shared := 0
	for _, w := range a {
		if containsString(b, w) {
			shared++
		}
	}
	if shared < 2 && x.verb != y.verb {
		return false
	}
	return float64(shared) >= topicOverlap*float64(min(len(a), len(b)))
}

// toActionItems converts tasks to the contract's type.
func toActionItems(tasks []task) []appliance.ActionItem {
	items := make([]appliance.ActionItem, 0, len(tasks))
	for _, t := range tasks {
		items = append(items, appliance.ActionItem{Description: t.desc, DueAt: t.due})
	}
	return items
}

// takePartVerbs say that someone is at a meeting: "do the conference",
// "attend the review", "cover the standup".
var takePartVerbs = lexicon.NewSet(`do attend cover run`)

// attendsEvent: the task at ws[v] is taking part in a meeting or an
// appointment named right after its verb.
func attendsEvent(ws []cword, v, b int) bool {
	if hasSeq(ws, v, "make", "it", "to") {
		v += 2 // "can you make it to the rehearsal on saturday at ten"
	} else if wordAt(ws, v) == "make" {
		// "can you make a 9 am standup tomorrow", "make the two o'clock":
		// making a meeting is being at it; "make dinner" is cooking
		if !ws[v+1].is(wcWithDeterminer) {
			return false
		}
		for k := v + 2; k < b && k <= v+5; k++ {
			if _, meal := mealHours[ws[k].lower]; ws[k].is(wcEventNoun) && !meal {
				return true
			}
			if _, _, _, n := clockAt(ws, k, true); n > 0 && k == v+2 {
				return true
			}
		}
		return false
	} else if !inSet(takePartVerbs, wordAt(ws, v)) {
		return false
	}
	for k := v + 1; k+2 < b; k++ {
		if ws[k].lower == "for" && ws[k+1].is(wcWithDeterminer) && ws[k+2].is(wcEventNoun) {
			return true // "could you do a week on friday at two for the interview"
		}
	}
	if inSet(determiners, wordAt(ws, v+1)) {
		if _, _, _, n := clockAt(ws, v+2, true); n > 0 {
			return true // "cover the two o'clock with the auditors"
		}
	}
	for k := v + 1; k < b && k <= v+4; k++ {
		w := ws[k].lower
		if inSet(eventNouns, w) || k > v+1 && inSet(modifiedNouns, w) {
			return true
		}
		if ws[k].punct != 0 {
			return false
		}
	}
	return false
}

// immediate: the task in ws[body:b] is to be done at once: "now", "right
// now", "right after this call", "straight after the meeting".
// The words that say so are marked in used, so the description drops them.
func immediate(ws []cword, body, b int, used []bool) bool {
	for j := body; j < b; j++ {
		w := ws[j].lower
		if w == "now" && (j == b-1 || ws[j].punct != 0 || wordAt(ws, j-1) == "right") {
			used[j] = true
			if wordAt(ws, j-1) == "right" {
				used[j-1] = true
			}
			return true
		}
		if (w == "right" || w == "straight" || w == "just") && wordAt(ws, j+1) == "after" &&
			(wordAt(ws, j+2) == "this" || wordAt(ws, j+2) == "the") && inSet(nowOccasions, wordAt(ws, j+3)) {
			for k := j; k < j+4; k++ {
				used[k] = true
			}
			return true
		}
		if (w == "right" || w == "straight" || w == "just") && wordAt(ws, j+1) == "after" && inSet(nowOccasions, wordAt(ws, j+2)) {
			// "i'll ping them right after standup"
			for k := j; k < j+3; k++ {
				used[k] = true
			}
			return true
		}
	}
	return false
}

// nowOccasions end soon after they are named: "right after this call".
var nowOccasions = lexicon.NewSet(`call meeting standup stand-up chat session class`)

// byCue: ws[a:b] says a time as a limit, "by" before a time cue ("we need
// the deck final by the first").
func byCue(ws []cword, a, b int) bool {
	for k := a; k+1 < b; k++ {
		if ws[k].lower == "by" && startsCue(ws, k+1) {
			return true
		}
	}
	return false
}

// todoHeads open a list of things to do: "things to do today", "to-do for
// tomorrow", "errands this morning".
var todoHeads = [][]string{{"things", "to", "do"}, {"to", "do"}, {"to-do"}, {"todo"}, {"errands"}}

// todoHead: clause ws[a:b] is such a head, with no task of its own.
func todoHead(ws []cword, a, b int) bool {
	s := skipDiscourse(ws, a, b)
	return s < b && matchAt(ws, s, b, todoHeads) > 0
}

// pastForms are irregular past forms a note may open with.
var pastForms = lexicon.NewSet(`went saw met had got told said spoke heard found made took gave came ran bought
	thought knew left felt sent asked moved fixed hired`)

// pastForm: w is a verb's past form ("talked", "went"), which records what
// happened rather than asking for a deed.
func pastForm(w string) bool {
	return inSet(pastForms, w) || len(w) > 5 && strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "eed") && !inSet(taskVerbs, w)
}

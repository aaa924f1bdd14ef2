package builtin

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hearth-appliance/hearth/appliance"

	"github.com/hearth-appliance/hearth/appliance/pipeline/lexicon"
)

// Memories, as the reference extracts them: at most two per conversation,
// "system" for facts about the user, "interesting" for advice or wisdom
// from someone else. The built-in route recognises the common shapes of
// both in English:
//   - the user states a fact: "I'm allergic to shellfish", "my daughter's
//     name is Mia", "I work at …", "I always prefer …", "I don't like …",
//     "I moved to …", "my favourite … is …";
//   - a plan or pursuit: "I'm learning Japanese", "I'm training for …",
//     "we're moving to …", "joined a running club";
//   - a fact about the user's people (memories_people.go): "Mom likes
//     gardening", "your brother is vegetarian" said to the user, "he's been
//     into woodworking" after "your dad";
//   - the user reports advice: "my doctor said I should …";
//   - another speaker gives general advice: "you should always …", "never
//     …", "the trick with X is …".
// Facts may start anywhere in a clause (unpunctuated speech runs them
// together); a supposition before one voids it ("maybe", "if"). Contents
// are short sentences in one style: facts start with "User" ("User is
// allergic to shellfish"), advice with its source ("Advice from user's
// doctor: cut back on coffee"), and a date said relative to the
// conversation is written out.

const (
	minMemoryTranscript = 25 // reference: shorter transcripts are skipped
	maxMemoryWords      = 16
)

// memoryCand is a memory being built.
type memoryCand struct {
	content  string
	category string
}

// memories reads the memories of the dialogue. ref is the conversation's
// start in the user's zone (zero: unknown); a date said relative to it is
// written out ("on the twelfth" becomes "on December 12"), since a memory
// outlives the day it was said.
func (dl *dialogue) memories(ref time.Time) []appliance.Memory {
	var out []appliance.Memory
	// the person last named, for "he" and "she": "your dad? He's been into
	// woodworking since he retired"
	named, namedAt := "", -10
	for i := range dl.utts {
		u := &dl.utts[i]
		if rel := personNamed(u); rel != "" {
			named, namedAt = rel, i
		} else if f := friendNamed(u); f != "" {
			named, namedAt = f, i
		}
		if i-namedAt > 2 {
			named = ""
		}
		if m, ok := dl.acceptedRole(i, ref); ok && !hasMemory(out, m.content) {
			out = append(out, appliance.Memory{Content: m.content, Category: m.category})
			if len(out) == appliance.MaxMemoriesPerConversation {
				return out
			}
		}
		if m, ok := dl.allergyAnswer(i); ok && !hasMemory(out, m.content) {
			out = append(out, appliance.Memory{Content: m.content, Category: m.category})
			if len(out) == appliance.MaxMemoriesPerConversation {
				return out
			}
		}
		if m, ok := dl.newRole(u); ok && !hasMemory(out, m.content) {
			out = append(out, appliance.Memory{Content: m.content, Category: m.category})
			if len(out) == appliance.MaxMemoriesPerConversation {
				return out
			}
		}
		if u.question {
			continue
		}
		ws := u.words
		for _, cl := range u.clauses {
			a, b := cl[0], cl[1]
			if supposedBefore(ws, a) {
				continue
			}
			s := skipDiscourse(ws, a, b)
			// Facts may come later in the clause and several in a row, in
			// unpunctuated speech above all: "gift ideas mom likes gardening
			// dad wants a new reel". A supposition before a fact ("maybe",
			// "if") voids it, one after it ends it ("… maybe the Shimano one").
			var starts []int
			for k := s; k < b-1; k++ {
				if ws[k].is(wcHypothetical) {
					break
				}
				if k == s || ws[k].is(wcFactStart) || ws[k].cap && k > 0 && strings.HasSuffix(ws[k].lower, "'s") {
					if _, ok := dl.memoryAt(u, ws, k, supposedAfter(ws, k, b), named); ok {
						starts = append(starts, k)
					}
				}
			}
			for n, k := range starts {
				end := supposedAfter(ws, k, b)
				if n+1 < len(starts) {
					end = min(end, starts[n+1])
				}
				m, ok := dl.memoryAt(u, datesWritten(ws, k, end, ref), k, end, named)
				if !ok || hasMemory(out, m.content) || m.category == appliance.MemorySystem && pointsAtHand(ws, k, end) {
					continue
				}
				out = append(out, appliance.Memory{Content: m.content, Category: m.category})
				if len(out) == appliance.MaxMemoriesPerConversation {
					return out
				}
			}
		}
	}
	return out
}

// factStarts may open a fact in the middle of a clause.
var factStarts = lexicon.NewSet(`i i'm i've my our we we're your mom mum dad grandma grandpa he he's she she's
	apparently heard her his`)

// supposedBefore: the clause at a is the consequence of a condition just
// before it ("if it rains, I'm staying in").
func supposedBefore(ws []cword, a int) bool {
	for k := max(0, a-4); k < a; k++ {
		switch ws[k].lower {
		case "if", "unless", "wish":
			// "if possible," is a courtesy, not a condition
			return !inSet(courtesyConditions, wordAt(ws, k+1))
		}
	}
	return false
}

// courtesyConditions after "if" make no condition: "if possible".
var courtesyConditions = lexicon.NewSet(`possible necessary needed any`)

// supposedAfter is where a supposition cuts the fact starting at k short,
// or b.
func supposedAfter(ws []cword, k, b int) int {
	for j := k + 1; j < b; j++ {
		if ws[j].is(wcHypothetical) || askedAt(ws, j) {
			return j
		}
	}
	return b
}

// askedAt: a question starts at ws[j] in speech without punctuation, and
// ends the fact before it: "i leave on january fifteenth is that enough
// time", "my sister moved to leeds did you know".
func askedAt(ws []cword, j int) bool {
	if j == 0 || ws[j-1].punct != 0 || !ws[j].is(wcQuestionAux) {
		return false
	}
	next := wordAt(ws, j+1)
	return next == "that" || next == "this" || next == "you" || next == "we" || next == "it"
}

// memoryAt reads a memory starting at ws[s] of utterance u, whose clause
// ends at b.
func (dl *dialogue) memoryAt(u *utterance, ws []cword, s, b int, named string) (memoryCand, bool) {
	if m, ok := pronounFact(ws, s, b, named); ok && (u.isUser || dl.userKnown) {
		return m, true
	}
	if m, ok := friendsRelationFact(ws, s, b, named); ok && u.isUser {
		return m, true
	}
	if m, ok := ownedFact(ws, s, b, u.isUser); ok && (u.isUser || dl.userKnown) {
		return m, true
	}
	switch {
	case u.isUser:
		if m, ok := userFact(ws, s, b); ok {
			return m, true
		}
		if m, ok := relationFact(ws, s, b, true); ok {
			return m, true
		}
		for _, shape := range []func([]cword, int, int) (memoryCand, bool){moreUserFact, relationChange, learnedFact, babyDue} {
			if m, ok := shape(ws, s, b); ok {
				return m, true
			}
		}
		return reportedAdvice(ws, s)
	case dl.userKnown:
		if m, ok := relationFact(ws, s, b, false); ok {
			return m, true
		}
		if m, ok := readResult(ws, s, b); ok {
			return m, true
		}
		if m, ok := wisdom(ws, s, speakerName(u.speaker)); ok {
			return m, true
		}
		// "my physio told me to always warm up first", passed on to the user
		m, ok := reportedAdvice(ws, s)
		if ok {
			m.content = strings.Replace(m.content, "user's ", speakerName(u.speaker)+"'s ", 1)
		}
		return m, ok
	}
	return memoryCand{}, false
}

// datesWritten returns ws, or a copy with the date said in ws[from:to]
// written out as a calendar date in the words it occupied.
func datesWritten(ws []cword, from, to int, ref time.Time) []cword {
	if ref.IsZero() || recurring(ws, from, to) {
		return ws // "every second Saturday" is no one date
	}
	used := make([]bool, len(ws))
	c := scanCues(ws, from, to, ref, used)
	if !c.date || c.recurring || c.deadline || c.past {
		// "this month" is a period, not a day
		return ws
	}
	date := c.mon.String() + " " + strconv.Itoa(c.day)
	if c.y != ref.Year() {
		date += ", " + strconv.Itoa(c.y)
	}
	out := slices.Clone(ws)
	first := true
	for k := from; k < to; k++ {
		if !used[k] {
			continue
		}
		if first {
			out[k].text = "on " + date
			first = false
		} else {
			out[k].text = ""
		}
	}
	return out
}

func hasMemory(ms []appliance.Memory, content string) bool {
	for _, m := range ms {
		if strings.EqualFold(m.Content, content) {
			return true
		}
	}
	return false
}

// identityWords after "I'm" state a lasting fact: "I'm vegetarian".
var identityWords = lexicon.NewSet(`allergic intolerant vegetarian vegan pescatarian diabetic celiac coeliac
	pregnant married engaged divorced single widowed retired left-handed right-handed colorblind
	colourblind lactose gluten-free sober asthmatic epileptic deaf`)

// degreeWords after "I'm a" describe a mood, not an identity: "I'm a bit tired".
var degreeWords = lexicon.NewSet(`bit little lot mess wreck tad ways while few couple`)

// relations are the people and pets whose names and facts are worth keeping.
var relations = lexicon.NewSet(`wife husband partner boyfriend girlfriend fiance fiancee son daughter kid
	kids child children mom mother dad father brother sister grandma grandmother grandpa grandfather
	aunt uncle cousin niece nephew dog cat boss roommate baby twins name birthday anniversary wedding goal dream
	favourite favorite`)

// ownFacts after "my … is" are facts whatever follows: "my goal is to pass
// the N5", "my birthday is in May".
var ownFacts = lexicon.NewSet(`name birthday anniversary wedding goal dream favourite favorite`)

// factAdverbs between "I" and its verb leave the fact unchanged.
var factAdverbs = lexicon.NewSet(`always usually really definitely honestly actually absolutely totally generally
	just still also`)

// conditions after "I have" are lasting health facts: "I have asthma".
var conditions = lexicon.NewSet(`asthma diabetes adhd migraines epilepsy arthritis celiac eczema allergies
	insomnia tinnitus`)

// notLiked after "I like/love" make a reaction to the talk, not a
// preference: "I like that idea", "I love it".
var notLiked = lexicon.NewSet(`it that this those these them you him her the a an your his their our what how
	when where to being doing going`)

// likedObject: a preference's object starts at ws[k] and carries content.
func likedObject(ws []cword, k, b int) bool {
	if k >= b || inSet(notLiked, ws[k].lower) {
		return false
	}
	for j := k; j < b; j++ {
		if isTaskContent(ws[j].lower) {
			return true
		}
	}
	return false
}

// pursuitVerbs after "I'm" name a plan or pursuit worth remembering: "I'm
// learning Japanese", "I'm training for a half marathon".
var pursuitVerbs = lexicon.NewSet(`learning training saving planning moving thinking studying teaching`)

// pursuit reads a plan after "I'm" in ws[j:b] when its object keeps it one:
// "saving for", "planning to", "thinking about going".
func pursuit(ws []cword, j, b int, subject string) (memoryCand, bool) {
	v, next := wordAt(ws, j), wordAt(ws, j+1)
	if !inSet(pursuitVerbs, v) || j+1 >= b {
		return memoryCand{}, false
	}
	switch v {
	case "learning", "studying", "teaching":
		if inSet(notLiked, next) || next == "a" || next == "so" || next == "lots" || next == "much" || next == "about" {
			return memoryCand{}, false
		}
	case "training", "saving":
		if next != "for" && !hasSeq(ws, j+1, "up", "for") {
			return memoryCand{}, false
		}
	case "planning":
		if next != "to" && next != "on" {
			return memoryCand{}, false
		}
	case "moving":
		if next != "to" {
			return memoryCand{}, false
		}
	case "thinking":
		// "thinking about going freelance", not "thinking about it"
		if (next != "about" && next != "of") || !strings.HasSuffix(wordAt(ws, j+2), "ing") {
			return memoryCand{}, false
		}
	}
	rest := factWords(ws, j, b)
	if rest == "" {
		return memoryCand{}, false
	}
	return memoryCand{content: subject + " " + rest, category: appliance.MemorySystem}, true
}

// haveObjects after "I have a/two" are facts, not plans: "I have two kids".
var haveObjects = lexicon.NewSet(`kids children son sons daughter daughters dog dogs cat cats brother brothers
	sister sisters twins allergy allergies asthma diabetes adhd migraines grandkids grandchildren toddler
	toddlers baby babies newborn teenager teenagers stepson stepdaughter grandson granddaughter puppy kitten`)

var playObjects = lexicon.NewSet(`guitar piano violin drums bass cello flute saxophone ukulele trumpet tennis
	soccer football basketball golf chess volleyball hockey baseball squash badminton padel rugby cricket`)

// systemFact is a fact about the user: prefix and the clause's words from
// ws[from:b], none when those words are empty.
func systemFact(ws []cword, prefix string, from, b int) (memoryCand, bool) {
	rest := factWords(ws, from, b)
	if rest == "" {
		return memoryCand{}, false
	}
	return memoryCand{content: prefix + " " + rest, category: appliance.MemorySystem}, true
}

// userFact reads a fact the user states about themselves in ws[s:b].
func userFact(ws []cword, s, b int) (memoryCand, bool) {
	w0, w1, w2 := wordAt(ws, s), wordAt(ws, s+1), wordAt(ws, s+2)
	sys := func(prefix string, from int) (memoryCand, bool) { return systemFact(ws, prefix, from, b) }
	if w0 == "i'm" || hasSeq(ws, s, "i", "am") {
		j := s + 1
		if w0 == "i" {
			j++
		}
		next := wordAt(ws, j)
		switch {
		case inSet(identityWords, next):
			return sys("User is", j)
		case next == "from" || hasSeq(ws, j, "originally", "from"):
			return sys("User is", j)
		case (next == "a" || next == "an") && !inSet(degreeWords, wordAt(ws, j+1)) && b-j <= 6:
			if !isTaskContent(wordAt(ws, b-1)) {
				return memoryCand{}, false
			}
			return sys("User is", j)
		case next == "working" && (wordAt(ws, j+1) == "at" || wordAt(ws, j+1) == "for"):
			return sys("User works", j+1)
		case hasSeq(ws, j, "not", "a", "fan", "of") && likedObject(ws, j+4, b),
			hasSeq(ws, j, "not", "a", "big", "fan", "of") && likedObject(ws, j+5, b):
			// "I'm not a big fan of cilantro"
			return sys("User doesn't like", b-len(fanObject(ws, j, b)))
		case inSet(tripVerbs, next) && wordAt(ws, j+1) == "to" && departure(ws, j+1, b),
			next == "going" && wordAt(ws, j+1) == "to" && j+2 < b && ws[j+2].cap && departure(ws, j+1, b):
			// "I'm flying to Lisbon on the ninth of May", "I'm going to Kenya in January"
			return sys("User is travelling", j+1)
		case next == "turning" && isCardinal(ws, j+1):
			// "I'm turning forty in March"
			return sys("User is", j)
		case next == "into" && likedObject(ws, j+1, b):
			// "I'm really into bouldering"
			return sys("User is into", j+1)
		}
		return pursuit(ws, j, b, "User is")
	}
	if w0 == "we're" || hasSeq(ws, s, "we", "are") {
		// plans of the household: "we're moving to Denver in March"
		j := s + 1
		if w0 == "we" {
			j++
		}
		if inSet(tripVerbs, wordAt(ws, j)) && wordAt(ws, j+1) == "to" && departure(ws, j+1, b) {
			// "we're flying to Lisbon in May"
			return sys("User is travelling", j+1)
		}
		if wordAt(ws, j) == "moving" || wordAt(ws, j) == "saving" {
			return pursuit(ws, j, b, "User's family is")
		}
		if hasSeq(ws, j, "getting", "married") || wordAt(ws, j) == "expecting" && j+1 >= b {
			// "we're getting married in June", "we're expecting!"
			return lifeEvent(ws, s, b, "User and their partner are", j)
		}
		return memoryCand{}, false
	}
	if w0 == "i've" && hasSeq(ws, s+1, "been", "diagnosed", "with") && s+4 < b {
		return sys("User was diagnosed with", s+4)
	}
	if w0 == "we" && w1 == "have" && haveCount(ws, s+2) && inSet(haveObjects, wordAt(ws, s+3)) {
		// "we have two cats", the household's
		return sys("User has", s+2)
	}
	if w0 == "we" && inSet(lifeOutcomes, wordAt(ws, s+2)) && (w1 == "got" || w1 == "just") {
		// "we got engaged last night"
		return lifeEvent(ws, s, b, "User and their partner", s+1)
	}
	if w0 == "i" {
		// "I always prefer the aisle", "I really don't like eggs"
		k := s + 1
		if inSet(factAdverbs, wordAt(ws, k)) {
			k++
		}
		w1, w2 := wordAt(ws, k), wordAt(ws, k+1)
		switch {
		case w1 == "work" && (w2 == "at" || w2 == "for" || w2 == "in" || w2 == "as"):
			return sys("User works", k+1)
		case w1 == "live" && (w2 == "in" || w2 == "on" || w2 == "near" || w2 == "with"):
			return sys("User lives", k+1)
		case w1 == "moved" && w2 == "to":
			return sys("User moved", k+1)
		case hasSeq(ws, k, "grew", "up"):
			return sys("User grew up", k+2)
		case w1 == "was" && w2 == "born":
			return sys("User was born", k+2)
		case w1 == "prefer":
			return sys("User prefers", k+1)
		case (w1 == "love" || w1 == "hate" || w1 == "like" || w1 == "enjoy") && likedObject(ws, k+1, b):
			return sys("User "+w1+"s", k+1)
		case (w1 == "don't" || w1 == "never") && (w2 == "like" || w2 == "enjoy") && likedObject(ws, k+2, b):
			return sys("User "+map[string]string{"don't": "doesn't", "never": "never"}[w1]+" "+w2, k+2)
		case (w1 == "don't" || w1 == "never" || w1 == "can't") && (w2 == "eat" || w2 == "drink"):
			verb := map[string]string{"don't": "doesn't", "never": "never", "can't": "can't"}[w1]
			return sys("User "+verb+" "+w2, k+2)
		case w1 == "have" && haveCount(ws, k+1) && inSet(haveObjects, wordAt(ws, k+2)),
			w1 == "have" && inSet(conditions, w2):
			return sys("User has", k+1)
		case w1 == "play" && inSet(playObjects, strings.TrimPrefix(w2+" ", "the ")+wordAt(ws, k+2)) ||
			w1 == "play" && inSet(playObjects, w2):
			return sys("User plays", k+1)
		case w1 == "speak" && k+1 < b && ws[k+1].cap:
			return sys("User speaks", k+1)
		case w1 == "teach" && k+1 < b:
			return sys("User teaches", k+1)
		case hasSeq(ws, k, "can't", "stand") && likedObject(ws, k+2, b):
			return sys("User can't stand", k+2)
		case (w1 == "was" || w1 == "got") && w2 == "diagnosed" && wordAt(ws, k+2) == "with" && k+3 < b:
			return sys("User was diagnosed with", k+3)
		case w1 == "volunteer" && (w2 == "at" || w2 == "with" || w2 == "for"):
			return sys("User volunteers", k+1)
		case inSet(departVerbs, w1) && departure(ws, k+1, b):
			// "I leave on January fifteenth", "I fly to Lisbon on the ninth"
			return sys("User is travelling", k+1)
		}
		if m, ok := lifeChange(ws, k, b); ok {
			return m, true
		}
		if m, ok := habit(ws, k, b); ok {
			return m, true
		}
		return newPursuit(ws, k, b)
	}
	if w0 == "i've" && w1 == "got" && (haveCount(ws, s+2) && inSet(haveObjects, wordAt(ws, s+3)) || inSet(conditions, w2)) {
		// "I've got two kids", "I've got asthma"
		return sys("User has", s+2)
	}
	if m, ok := newPursuit(ws, s, b); ok {
		// a note without its subject: "signed up to volunteer at the food bank"
		return m, true
	}
	if m, ok := bestOf(ws, s, b); ok {
		return m, true
	}
	if w0 == "our" && inSet(ownFacts, w1) && w2 == "is" {
		// "our anniversary is on the twelfth"
		return sys("User's", s+1)
	}
	if w0 == "my" && (w1 == "favourite" || w1 == "favorite") {
		// "my favourite novel this year is …"
		for k := s + 2; k < b-1 && k < s+7; k++ {
			if ws[k].lower == "is" || ws[k].lower == "are" {
				return sys("User's", s+1)
			}
		}
		return memoryCand{}, false
	}
	if w0 == "my" {
		// "my daughter's name is Mia", "my name is Sam", "my wife is a teacher"
		rel := strings.TrimSuffix(w1, "'s")
		if !inSet(relations, rel) {
			return memoryCand{}, false
		}
		j := s + 2
		if strings.HasSuffix(w1, "'s") && rel != "name" {
			// "my daughter's name is Mia", "my mom's birthday is March 3rd"
			if !(inSet(ownFacts, wordAt(ws, j)) && wordAt(ws, j+1) == "is") {
				return memoryCand{}, false
			}
		} else if !(w2 == "is" || w2 == "'s") {
			return memoryCand{}, false
		}
		if !inSet(ownFacts, rel) && !strings.HasSuffix(w1, "'s") {
			next := wordAt(ws, j+1)
			if next != "a" && next != "an" && next != "called" && next != "named" && !inSet(identityWords, next) {
				return memoryCand{}, false
			}
			if (next == "a" || next == "an") && !isAn(ws, j+1) && (rel != "dog" && rel != "cat" || inSet(degreeWords, wordAt(ws, j+2))) {
				// "my wife is a teacher", "my dog is a labrador"; "my boss
				// is a nightmare this week" is a mood of the day
				return memoryCand{}, false
			}
		}
		return sys("User's", s+1)
	}
	return memoryCand{}, false
}

// tripVerbs after "I'm" or "we're" make a trip when a place and a
// calendar date follow.
var tripVerbs = lexicon.NewSet(`flying travelling traveling heading`)

// routineDestinations are where a person goes every week, not on a trip.
var routineDestinations = lexicon.NewSet(`work school home office gym class church store shop supermarket`)

// departVerbs after "I" start a trip when a calendar date follows.
var departVerbs = lexicon.NewSet(`leave fly depart travel`)

// departure: ws[k:b] goes somewhere ("to", "for", "on") and names a month or
// a weekday, so the trip is dated and outlives the talk; "I leave for work
// at eight" names neither and is a routine, not a trip.
func departure(ws []cword, k, b int) bool {
	if w := wordAt(ws, k); w != "on" && w != "to" && w != "for" {
		return false
	}
	if d := wordAt(ws, k+1); inSet(routineDestinations, d) || d == "the" && inSet(routineDestinations, wordAt(ws, k+2)) {
		return false // "I leave for work on Monday at seven"
	}
	for j := k + 1; j < b && j < k+8; j++ {
		if _, ok := months[ws[j].lower]; ok {
			return true
		}
		if weekdayOf(ws[j].lower) >= 0 {
			return true
		}
	}
	return false
}

func haveCount(ws []cword, k int) bool {
	w := wordAt(ws, k)
	if w == "a" || w == "an" || isDigits(w) {
		return true
	}
	_, ok := countWords[w]
	return ok
}

// factTrailing close a fact without belonging to it.
var factTrailing = lexicon.NewSet(`now actually too myself though honestly anyway also really so and but like`)

// factWords renders ws[from:to] for a memory: trailing filler dropped,
// "my" turned into "their" so the sentence reads in the third person.
func factWords(ws []cword, from, to int) string {
	for to > from && (inSet(factTrailing, ws[to-1].lower) || isFiller(ws[to-1].lower)) {
		to--
	}
	if to-from > maxMemoryWords {
		to = from + maxMemoryWords
	}
	if from >= to {
		return ""
	}
	words := make([]string, 0, to-from)
	for k := from; k < to; k++ {
		w := ws[k].text
		if w == "" {
			continue // a word a written-out date took the place of
		}
		if code, n := spokenCode(ws, k, to); n > 0 {
			// "the n five" is the exam the user wrote down as "N5"
			words = append(words, code)
			k += n - 1
			continue
		}
		switch ws[k].lower {
		case "my":
			w = "their"
		case "i":
			w = "they"
		case "me":
			w = "them"
		case "i'm":
			w = "they're"
		}
		words = append(words, w)
	}
	return strings.Join(words, " ")
}

// advisors are whose advice the user passes on: "the accountant said…".
var advisors = lexicon.NewSet(`doctor dentist therapist trainer coach mom mother dad father grandma
	grandmother grandpa grandfather boss mentor teacher accountant lawyer physio physiotherapist
	nutritionist dietitian mechanic pharmacist nurse vet counselor counsellor advisor adviser
	friend professor manager sister brother aunt uncle wife husband partner`)

// adviceIntros open the advice after a reporting verb.
var adviceIntros = [][]string{
	{"i", "should"}, {"i", "need", "to"}, {"i", "have", "to"}, {"i", "must"}, {"i", "ought", "to"},
	{"you", "should"}, {"you", "need", "to"}, {"you", "have", "to"}, {"me", "to"}, {"to"},
	{"that", "i", "should"}, {"that", "i", "need", "to"}, {"that", "you", "should"},
}

// reportedAdvice: "my doctor said I should cut back on coffee", "the
// accountant said I should keep every receipt".
func reportedAdvice(ws []cword, s int) (memoryCand, bool) {
	var who string
	j := s
	switch {
	case wordAt(ws, j) == "my" && inSet(advisors, wordAt(ws, j+1)):
		who = "user's " + ws[j+1].text
		j += 2
	case wordAt(ws, j) == "the" && inSet(advisors, wordAt(ws, j+1)):
		who = "the " + ws[j+1].text
		j += 2
	default:
		return memoryCand{}, false
	}
	switch wordAt(ws, j) {
	case "said", "says", "told", "recommended", "recommends", "suggested", "suggests", "thinks", "advised":
		j++
	default:
		return memoryCand{}, false
	}
	n := matchAt(ws, j, len(ws), adviceIntros)
	if n == 0 {
		return memoryCand{}, false
	}
	body := adviceWords(ws, j+n)
	if body == "" {
		return memoryCand{}, false
	}
	return memoryCand{content: "Advice from " + who + ": " + body, category: appliance.MemoryInteresting}, true
}

// adviceOpeners introduce general advice from another speaker.
var adviceOpeners = [][]string{
	{"one", "piece", "of", "advice"}, {"a", "piece", "of", "advice"}, {"my", "advice", "is", "to"},
	{"my", "advice", "is"}, {"pro", "tip"}, {"a", "tip"}, {"rule", "of", "thumb"},
}

// wisdom: general advice from another speaker ("you should always keep
// some cash at home", "never use cold water", "the trick with sourdough
// is to feed the starter twice a day").
func wisdom(ws []cword, s int, who string) (memoryCand, bool) {
	j := s
	if n := matchAt(ws, j, len(ws), adviceOpeners); n > 0 {
		j += n
		if ws[j-1].punct != 0 || j >= len(ws) {
			return memoryCand{}, false // the advice is in the next clause
		}
	}
	for _, p := range [][]string{{"you", "should"}, {"you", "have", "to"}, {"you", "need", "to"}, {"you", "want", "to"}, {"you", "gotta"}} {
		if hasSeq(ws, j, p...) && (wordAt(ws, j+len(p)) == "always" || wordAt(ws, j+len(p)) == "never") {
			j += len(p)
			break
		}
	}
	if n := matchAt(ws, j, len(ws), testimonials); n > 0 {
		// "the best thing we did was take shifts"
		if body := adviceWords(ws, j+n); body != "" {
			return memoryCand{content: "Advice from " + who + ": " + body, category: appliance.MemoryInteresting}, true
		}
	}
	w := wordAt(ws, j)
	switch {
	case (w == "always" || w == "never") && !inSet(notAdviceVerbs, wordAt(ws, j+1)) && !inSet(subjectPronouns, wordAt(ws, j+1)) ||
		hasSeq(ws, j, "never", "ever"):
	case w == "the" && inSet(secretWords, wordAt(ws, j+1)) && adviceShape(ws, j+2):
	default:
		return memoryCand{}, false
	}
	body := adviceWords(ws, j)
	if body == "" {
		return memoryCand{}, false
	}
	return memoryCand{content: "Advice from " + who + ": " + body, category: appliance.MemoryInteresting}, true
}

var secretWords = lexicon.NewSet(`trick key secret rule`)

// testimonials pass on what worked: "the best thing we did was…".
var testimonials = [][]string{
	{"the", "best", "thing", "we", "did", "was"}, {"the", "best", "thing", "i", "did", "was"},
	{"the", "best", "thing", "you", "can", "do", "is"}, {"what", "worked", "for", "us", "was"},
	{"what", "worked", "for", "me", "was"}, {"what", "helped", "me", "was"}, {"what", "helped", "us", "was"},
}

// notAdviceVerbs after "always"/"never" describe, not advise: "never been",
// "always was".
var notAdviceVerbs = lexicon.NewSet(`be been was were is are am had has have did does do the a an so like
	just mind happened gets got works worked knew thought said`)

// adviceShape: "the trick with X is…", "the key is…".
func adviceShape(ws []cword, j int) bool {
	for k := j; k < len(ws) && k < j+6; k++ {
		if ws[k].lower == "is" {
			return true
		}
	}
	return false
}

// adviceWords is the advice from ws[from] to the end of its phrase (the
// next punctuation), in the second person it was given in.
func adviceWords(ws []cword, from int) string {
	to := from
	for to < len(ws) {
		to++
		if ws[to-1].punct != 0 {
			break
		}
	}
	for to > from && (inSet(factTrailing, ws[to-1].lower) || isFiller(ws[to-1].lower)) {
		to--
	}
	if to-from > maxMemoryWords {
		to = from + maxMemoryWords
	}
	if to-from < 2 {
		return ""
	}
	words := make([]string, 0, to-from)
	for k := from; k < to; k++ {
		w := ws[k].text
		if ws[k].lower == "my" {
			w = "your"
		}
		words = append(words, w)
	}
	words[0] = strings.ToLower(words[0][:1]) + words[0][1:]
	return strings.Join(words, " ")
}

// newPursuit reads something the user took up, at ws[k]: "joined a running
// club", "started learning the piano", "signed up to volunteer at … every
// second Saturday" (signing up for one class is a plan, not a habit).
func newPursuit(ws []cword, k, b int) (memoryCand, bool) {
	w, next := wordAt(ws, k), wordAt(ws, k+1)
	switch {
	case w == "joined" && (next == "a" || next == "an" || next == "the"),
		w == "started" && strings.HasSuffix(next, "ing") && len(next) > 5,
		w == "signed" && next == "up" && (wordAt(ws, k+2) == "to" || wordAt(ws, k+2) == "for") && recurring(ws, k, b):
	default:
		return memoryCand{}, false
	}
	rest := factWords(ws, k, b)
	if rest == "" {
		return memoryCand{}, false
	}
	return memoryCand{content: "User " + rest, category: appliance.MemorySystem}, true
}

// recurring: ws[k:b] says the thing repeats.
func recurring(ws []cword, k, b int) bool {
	for j := k; j < b; j++ {
		switch ws[j].lower {
		case "every", "weekly", "monthly", "daily", "each":
			return true
		}
	}
	return false
}

// bestOf reads a judgement of the user's own: "the oat flat white at Blue
// Door is the best coffee in the neighbourhood". The subject must be a
// thing named with "the" and at least two more words, so "the best thing
// is …" and "that's the best" make none.
func bestOf(ws []cword, s, b int) (memoryCand, bool) {
	if wordAt(ws, s) != "the" || wordAt(ws, s+1) == "best" {
		return memoryCand{}, false
	}
	for k := s + 3; k+3 < b && k < s+10; k++ {
		if hasSeq(ws, k, "is", "the", "best") || hasSeq(ws, k, "are", "the", "best") {
			if rest := factWords(ws, s, b); rest != "" && k+3 < b {
				return memoryCand{content: "User thinks " + rest, category: appliance.MemorySystem}, true
			}
		}
	}
	return memoryCand{}, false
}

// lifeOutcomes after "got" are lasting changes: "I got promoted".
var lifeOutcomes = lexicon.NewSet(`promoted engaged married divorced hired`)

// jobWords after "a new" or "my" make a change of work: "started a new job".
var jobWords = lexicon.NewSet(`job position role`)

// lifeChange reads a change in the user's life at ws[k] (after "I"): "I
// started a new job at …", "I got promoted", "I quit my job", "I retired
// last spring". Changes of keys and coats ("I left my keys") are no memory,
// so only jobs, promotions, marriages and habits given up count.
func lifeChange(ws []cword, k, b int) (memoryCand, bool) {
	w, next := wordAt(ws, k), wordAt(ws, k+1)
	switch {
	case (w == "started" || w == "got" || w == "landed" || w == "accepted") && next == "a" &&
		(inSet(jobWords, wordAt(ws, k+2)) || wordAt(ws, k+2) == "new" && inSet(jobWords, wordAt(ws, k+3))),
		w == "got" && inSet(lifeOutcomes, next),
		(w == "quit" || w == "left") && next == "my" && inSet(jobWords, wordAt(ws, k+2)),
		w == "quit" && (next == "smoking" || next == "drinking" || next == "caffeine" || next == "sugar"),
		w == "retired" && k+1 <= b:
	default:
		return memoryCand{}, false
	}
	rest := factWords(ws, k, b)
	if rest == "" {
		return memoryCand{}, false
	}
	return memoryCand{content: "User " + rest, category: appliance.MemorySystem}, true
}

// lifeEvent renders a change of the household from ws[j].
func lifeEvent(ws []cword, s, b int, subject string, j int) (memoryCand, bool) {
	rest := factWords(ws, j, b)
	if rest == "" {
		return memoryCand{}, false
	}
	return memoryCand{content: subject + " " + rest, category: appliance.MemorySystem}, true
}

// spokenCode reads a letter spelled out before a number at ws[k] ("n five",
// "b twelve") as the code it names ("N5", "B12"), the way a person writes
// an exam level, a form or a gate down. "a" and "i" are words, not letters.
func spokenCode(ws []cword, k, to int) (string, int) {
	w := ws[k].lower
	if len(w) != 1 || w[0] < 'a' || w[0] > 'z' || w == "a" || w == "i" || k+1 >= to {
		return "", 0
	}
	v, n := cardinalAt(ws, k+1)
	if n == 0 || k+1+n > to || isDigits(ws[k+1].lower) && n == 1 && len(ws[k+1].lower) > 3 {
		return "", 0
	}
	return strings.ToUpper(w) + strconv.Itoa(v), 1 + n
}

// fanObject is what follows "not a (big) fan of" in ws[j:b].
func fanObject(ws []cword, j, b int) []cword {
	for k := j; k < b; k++ {
		if ws[k].lower == "of" {
			return ws[k+1 : b]
		}
	}
	return nil
}

// habitVerbs are what a person does on a schedule of their own: "I swim
// every morning", "I go to the gym every Tuesday". Verbs of the talk
// itself ("I think every…", "I need…") are left out by naming the ones in.
var habitVerbs = lexicon.NewSet(`run swim cycle bike walk jog go play practice practise train meditate
	visit cook bake read write paint climb hike dance sing teach volunteer work`)

// habit reads a routine the user states at ws[k] (the verb after "I"):
// the verb is one of habitVerbs and an "every"/"each"/"daily" follows.
func habit(ws []cword, k, b int) (memoryCand, bool) {
	v := wordAt(ws, k)
	if !inSet(habitVerbs, v) || !recurring(ws, k+1, b) {
		return memoryCand{}, false
	}
	rest := factWords(ws, k+1, b)
	if rest == "" {
		return memoryCand{}, false
	}
	verb := v + "s"
	if strings.HasSuffix(v, "o") || strings.HasSuffix(v, "sh") || strings.HasSuffix(v, "ch") {
		verb = v + "es" // "goes", "teaches"
	}
	return memoryCand{content: "User " + verb + " " + rest, category: appliance.MemorySystem}, true
}

// isCardinal: a whole number is said at ws[k] ("forty", "40").
func isCardinal(ws []cword, k int) bool {
	_, n := cardinalAt(ws, k)
	return n > 0
}

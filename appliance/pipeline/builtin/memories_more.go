package builtin

import (
	"strings"
	"time"

	"github.com/hearth-appliance/hearth/appliance"

	"github.com/hearth-appliance/hearth/appliance/pipeline/lexicon"
)

// More shapes of a lasting fact, each a piece of grammar rather than a
// sentence: a state the user has come into ("I've gone vegan", "I've been
// sleeping badly since the surgery"), how the user works best ("I do my best
// thinking on long walks"), a goal with a horizon ("I want to run a half
// marathon this year"), a home or a pet got ("we bought a house in
// Portland"), one of the user's people named and what changed for them
// ("my sister Ana just moved to Berlin"), a result another speaker reads
// out ("your iron levels are quite low"), and a thing learned, said with
// where it was heard ("heard on the radio that sharks are older than
// trees").

// stateVerbs after "I've" bring the user into a lasting state: "I've been
// vegetarian", "I've gone vegan", "I've become diabetic".
var stateVerbs = lexicon.NewSet(`been gone become`)

// spellVerbs name how the user has been lately: "I've been sleeping badly".
var spellVerbs = lexicon.NewSet(`sleeping feeling struggling eating`)

// spellMarks make such a spell worth keeping: since when, or how badly.
var spellMarks = lexicon.NewSet(`since badly poorly lately recently worse`)

// goalHorizons date a wish as a goal: "this year", "one day".
var goalHorizons = [][]string{
	{"this", "year"}, {"next", "year"}, {"this", "winter"}, {"this", "summer"}, {"this", "spring"},
	{"this", "autumn"}, {"this", "fall"}, {"one", "day"}, {"someday"}, {"eventually"}, {"before", "i", "turn"},
}

// acquired are homes and animals a household gets: facts for years.
var acquired = lexicon.NewSet(`house flat apartment home condo cottage puppy kitten dog cat`)

// acquireVerbs get them.
var acquireVerbs = lexicon.NewSet(`bought adopted got rescued`)

// changeVerbs say what changed for one of the user's people.
var changeVerbs = lexicon.NewSet(`moved started retired lives works got had passed joined left`)

// resultNouns are what a test reads out about the user.
var resultNouns = lexicon.NewSet(`levels level results result count pressure cholesterol iron sugar thyroid
	vitamin ferritin`)

// resultWords state a result worth keeping.
var resultWords = lexicon.NewSet(`low high elevated raised deficient`)

// learnedFrom introduce a thing learned: "heard on the podcast that",
// "read that", "apparently", "fun fact".
var learnedFrom = lexicon.NewSet(`heard read learned learnt`)

// moreUserFact reads the shapes above in a clause the user says, from ws[s].
func moreUserFact(ws []cword, s, b int) (memoryCand, bool) {
	w0, w1, w2 := wordAt(ws, s), wordAt(ws, s+1), wordAt(ws, s+2)
	sys := func(prefix string, from int) (memoryCand, bool) { return systemFact(ws, prefix, from, b) }
	k := s + 1 // after "I"
	if inSet(factAdverbs, wordAt(ws, k)) {
		k++
	}
	switch {
	case w0 == "i've" && inSet(stateVerbs, w1) && inSet(identityWords, w2):
		return sys("User is", s+2)
	case w0 == "i" && (wordAt(ws, k) == "went" || wordAt(ws, k) == "became") && inSet(identityWords, wordAt(ws, k+1)):
		return sys("User is", k+1)
	case w0 == "i've" && w1 == "been" && inSet(spellVerbs, w2) && hasAny(ws, s+3, b, spellMarks):
		return sys("User has been", s+2)
	case w0 == "i" && hasSeq(ws, k, "do", "my", "best") && k+3 < b:
		return sys("User does their best", k+3)
	case w0 == "i" && (hasSeq(ws, k, "want", "to") || hasSeq(ws, k, "would", "love", "to")) && goalSaid(ws, k, b):
		return sys("User wants to", k+2+boolInt(wordAt(ws, k) == "would"))
	case (w0 == "i" || w0 == "we") && inSet(acquireVerbs, wordAt(ws, k)) && haveCount(ws, k+1) && inSet(acquired, wordAt(ws, k+2)):
		return sys("User", k)
	}
	return memoryCand{}, false
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// goalSaid: ws[k:b] gives a wish a horizon.
func goalSaid(ws []cword, k, b int) bool {
	for j := k; j < b; j++ {
		if matchAt(ws, j, b, goalHorizons) > 0 {
			return true
		}
	}
	return false
}

// relationChange reads "my sister Ana (just) moved to Berlin for a new
// job": one of the user's people, named, and what changed for them.
func relationChange(ws []cword, s, b int) (memoryCand, bool) {
	if wordAt(ws, s) != "my" || !inSet(relations, wordAt(ws, s+1)) || inSet(ownFacts, wordAt(ws, s+1)) {
		return memoryCand{}, false
	}
	j := s + 2
	if j < b && ws[j].cap && ws[j-1].punct == 0 {
		j++ // the name
	}
	if inSet(factAdverbs, wordAt(ws, j)) {
		j++
	}
	if !inSet(changeVerbs, wordAt(ws, j)) || j+1 >= b || !lastingChange(ws, j, b) {
		return memoryCand{}, false
	}
	rest := factWords(ws, s, b)
	if rest == "" {
		return memoryCand{}, false
	}
	return memoryCand{content: "User's " + strings.TrimPrefix(rest, "their "), category: appliance.MemorySystem}, true
}

// lastingChange: the change at ws[j] outlives the day. "Moved", "retired",
// "lives", "works" and "joined" always do; "got", "started", "had", "left"
// and "passed" only with what lasts ("got into the nursing programme",
// "started a new job", "had a baby", "left for Canada", "passed away"), not
// "got a new car", "had a cold", "left his bag on the bus".
func lastingChange(ws []cword, j, b int) bool {
	next := wordAt(ws, j+1)
	switch ws[j].lower {
	case "got", "started":
		return careerClaim(ws, j+1, b) || ws[j].lower == "started" && (next == "school" || next == "university" || next == "college" || next == "uni")
	case "had":
		return (next == "a" || next == "her" || next == "their") && (wordAt(ws, j+2) == "baby" || wordAt(ws, j+2) == "twins") || next == "twins"
	case "left":
		return next == "for" || (next == "his" || next == "her" || next == "their") && inSet(leftBehind, wordAt(ws, j+2))
	case "passed":
		return next == "away" || (next == "his" || next == "her" || next == "their") && (wordAt(ws, j+2) == "driving" || wordAt(ws, j+2) == "bar")
	}
	return true
}

// leftBehind are what one leaves for good: "left her job".
var leftBehind = lexicon.NewSet(`job company firm school university wife husband partner boyfriend girlfriend`)

// readResult reads a test result another speaker tells the user: "your
// iron levels are quite low", "your thyroid results came back a little
// high".
func readResult(ws []cword, s, b int) (memoryCand, bool) {
	if wordAt(ws, s) != "your" {
		return memoryCand{}, false
	}
	var subject []string
	j := s + 1
	for ; j < b && j < s+4 && !inSet(slotCopulas, ws[j].lower) && ws[j].lower != "came"; j++ {
		subject = append(subject, ws[j].text)
	}
	if len(subject) == 0 || !inSet(resultNouns, strings.ToLower(subject[len(subject)-1])) && !inSet(resultNouns, strings.ToLower(subject[0])) {
		return memoryCand{}, false
	}
	for k := j; k < b && k <= j+5; k++ {
		if inSet(resultWords, ws[k].lower) {
			verb := "is"
			if strings.HasSuffix(strings.ToLower(subject[len(subject)-1]), "s") {
				verb = "are"
			}
			return memoryCand{content: "User's " + strings.Join(subject, " ") + " " + verb + " " + ws[k].lower, category: appliance.MemorySystem}, true
		}
		if ws[k].punct != 0 {
			break
		}
	}
	return memoryCand{}, false
}

// learnedFact reads a thing the user learned, said with its source: "heard
// on the radio that sharks are older than trees", "apparently bananas are
// berries". The fact must be about the world: no person of the talk in it
// and no date, so "apparently the meeting moved to 3" is none.
func learnedFact(ws []cword, s, b int) (memoryCand, bool) {
	j := -1
	switch w := wordAt(ws, s); {
	case w == "apparently":
		j = s + 1
	case hasSeq(ws, s, "fun", "fact"):
		j = s + 2
	case inSet(learnedFrom, w) || (w == "i" || w == "just") && inSet(learnedFrom, wordAt(ws, s+1)):
		for k := s; k < b && k < s+8; k++ {
			if ws[k].lower == "that" {
				j = k + 1
				break
			}
		}
	}
	if j < 0 || b-j < 4 {
		return memoryCand{}, false
	}
	for k := j; k < b; k++ {
		if inSet(firstPerson, ws[k].lower) || strings.HasPrefix(ws[k].lower, "you") || inSet(thirdPerson, ws[k].lower) {
			return memoryCand{}, false
		}
	}
	if c := scanCues(ws, j, b, time.Time{}, nil); c.found {
		return memoryCand{}, false
	}
	rest := factWords(ws, j, b)
	if rest == "" {
		return memoryCand{}, false
	}
	return memoryCand{content: capitalise(rest), category: appliance.MemoryInteresting}, true
}

// babyDue reads the user's coming baby: "the baby's due in April", "our
// baby is due on the 3rd of May", "my due date is June 12th".
func babyDue(ws []cword, s, b int) (memoryCand, bool) {
	j := s
	switch wordAt(ws, j) {
	case "the", "our", "my":
		j++
	default:
		return memoryCand{}, false
	}
	switch {
	case wordAt(ws, j) == "baby's" && wordAt(ws, j+1) == "due":
		j += 2
	case wordAt(ws, j) == "baby" && wordAt(ws, j+1) == "is" && wordAt(ws, j+2) == "due":
		j += 3
	case hasSeq(ws, j, "due", "date", "is") && wordAt(ws, s) == "my":
		j += 3
	default:
		return memoryCand{}, false
	}
	if j >= b || !startsCue(ws, j) && wordAt(ws, j) != "in" && wordAt(ws, j) != "on" && wordAt(ws, j) != "at" {
		return memoryCand{}, false
	}
	rest := factWords(ws, j, b)
	if rest == "" {
		return memoryCand{}, false
	}
	return memoryCand{content: "User is expecting a baby due " + rest, category: appliance.MemorySystem}, true
}

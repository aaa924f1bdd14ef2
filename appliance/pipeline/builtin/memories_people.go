package builtin

import (
	"strings"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/pipeline/lexicon"
)

// Memories about the user's people: what they like, where they live, how
// old they turn, named by their relation to the user ("my sister", "your
// dad" said to the user, "Mom") or by "he" and "she" after being named.

// kin are relations named without "my": "Mom likes gardening".
var kin = lexicon.NewSet(`mom mum mother dad father grandma grandmother grandpa grandfather granny nana`)

// relationVerbs state a fact about one of the user's people.
var relationVerbs = lexicon.NewSet(`likes loves hates wants enjoys prefers lives works turns has is plays speaks
	got started`)

// isAn: ws[k] opens "a"/"an" and an occupation, maybe retired: "a retired
// carpenter", "an engineer".
func isAn(ws []cword, k int) bool {
	if w := wordAt(ws, k); w != "a" && w != "an" {
		return false
	}
	if wordAt(ws, k+1) == "retired" {
		k++
	}
	return inSet(occupations, wordAt(ws, k+1))
}

// relationFact reads a fact about one of the user's people: "my sister
// lives in Porto", "Mom likes gardening", "your brother is vegetarian now"
// (said to the user).
func relationFact(ws []cword, s, b int, isUser bool) (memoryCand, bool) {
	j := s
	owner := "User's "
	switch w := wordAt(ws, j); {
	case w == "my" && isUser, w == "your" && !isUser:
		j++
	case inSet(kin, w):
	case ws[j].cap && strings.HasSuffix(w, "'s") && len(w) > 3 && inSet(relations, wordAt(ws, j+1)) && !inSet(ownFacts, wordAt(ws, j+1)) &&
		!inSet(stopWords, w) && !inSet(notOwners, strings.TrimSuffix(w, "'s")):
		// "Priya's daughter turns five on January 8th": a named person's
		owner = ws[j].text + " "
		j++
	default:
		return memoryCand{}, false
	}
	rel := wordAt(ws, j)
	if !inSet(relations, rel) && !inSet(neutralNamed, rel) || inSet(ownFacts, rel) {
		return memoryCand{}, false
	}
	who := ws[j].lower
	if relationClaim(ws, j+1, b) && personName(ws, j+1) {
		// "my son jack got his first job", "my neighbour Ahmed is a retired carpenter"
		j++
		who += " " + capitalise(ws[j].lower)
	}
	if !relationClaim(ws, j, b) {
		return memoryCand{}, false
	}
	for k := j + 2; k < b; k++ {
		if inSet(newSubjects, ws[k].lower) {
			b = k // "… at the bakery on main street | he starts on monday"
		}
	}
	rest := factWords(ws, j+1, b)
	if rest == "" {
		return memoryCand{}, false
	}
	return memoryCand{content: owner + who + " " + rest, category: appliance.MemorySystem}, true
}

// personName: ws[k] can be the name of the person just named by relation
// ("my son jack"): capitalised when the transcript has capitals, else any
// word that is no function word, verb of a fact, or time.
func personName(ws []cword, k int) bool {
	w := wordAt(ws, k)
	if w == "" || ws[k-1].punct != 0 || inSet(stopWords, w) || inSet(relationVerbs, w) || inSet(cueStarts, w) || numberWord(w) {
		return false
	}
	if ws[k].cap {
		return true
	}
	for _, c := range ws[k].text {
		if c >= 'A' && c <= 'Z' {
			return false
		}
	}
	return !anyCapital(ws)
}

// anyCapital: the transcript writes capitals (a name then has one).
func anyCapital(ws []cword) bool {
	for k := range ws {
		if ws[k].cap {
			return true
		}
	}
	return false
}

// newSubjects open a sentence of their own in unpunctuated speech, which
// ends the fact before them.
var newSubjects = lexicon.NewSet(`he she they he's she's they're`)

// placePreps end the thing got into: "got into trouble | at school".
var placePreps = lexicon.NewSet(`at in on with for again`)

// notOwners are capitalised possessives that name no one: "Today's goal".
var notOwners = lexicon.NewSet(`today tomorrow yesterday everyone everybody someone somebody nobody one
	it that there here what who`)

// admittedTo are what one gets into: "got into Leeds university".
var admittedTo = lexicon.NewSet(`programme program university uni college school course academy team band
	choir orchestra squad`)

// neutralNamed are the user's people who are no relation: "my neighbour
// Ahmed is a retired carpenter".
var neutralNamed = lexicon.NewSet(`neighbour neighbor roommate flatmate`)

// occupations after "is a" make a lasting fact: "he's a retired carpenter".
var occupations = lexicon.NewSet(`teacher nurse doctor lawyer engineer carpenter plumber electrician chef
	accountant architect dentist pilot firefighter farmer mechanic pharmacist vet paramedic programmer
	developer designer builder painter musician professor student`)

// careerObjects after "got" or "started": "got his first job", "started a
// new job", "got into the architecture programme", "got engaged".
func careerClaim(ws []cword, j, b int) bool {
	k := j
	switch wordAt(ws, k) {
	case "into":
		// "got into the architecture programme", not "got into trouble"
		for m := k + 1; m < b && m <= k+5 && !inSet(placePreps, ws[m].lower); m++ {
			if inSet(admittedTo, ws[m].lower) {
				return true
			}
		}
		return false
	case "engaged", "married", "promoted":
		return true
	case "a", "an", "his", "her", "their":
		k++
	default:
		return false
	}
	for n := 0; n < 2 && (wordAt(ws, k) == "first" || wordAt(ws, k) == "new" || wordAt(ws, k) == "full-time" || wordAt(ws, k) == "part-time"); n++ {
		k++
	}
	switch wordAt(ws, k) {
	case "job", "place", "scholarship", "apprenticeship", "internship":
		return true
	}
	return false
}

// relationClaim: the words after the person at ws[j] state a lasting fact
// about them ("likes gardening", "lives in Porto", "turns ninety").
func relationClaim(ws []cword, j, b int) bool {
	verb, next := wordAt(ws, j+1), wordAt(ws, j+2)
	if !inSet(relationVerbs, verb) {
		return false
	}
	switch verb {
	case "likes", "loves", "hates", "enjoys", "prefers":
		if !likedObject(ws, j+2, b) {
			return false
		}
	case "wants":
		if inSet(notLiked, next) && next != "a" && next != "an" && next != "to" || !likedObject(ws, j+3, b) {
			return false
		}
	case "lives", "works":
		if next != "in" && next != "at" && next != "for" && next != "as" && next != "near" && next != "on" {
			return false
		}
	case "turns":
		if _, ok := countWords[next]; !ok && !isDigits(next) {
			return false
		}
	case "has":
		if !(haveCount(ws, j+2) && inSet(haveObjects, wordAt(ws, j+3))) && !inSet(conditions, next) {
			return false
		}
	case "is":
		if !inSet(identityWords, next) && next != "into" && next != "from" && !isAn(ws, j+2) {
			return false
		}
	case "got", "started":
		if !careerClaim(ws, j+2, b) {
			return false
		}
	case "plays":
		if !inSet(playObjects, next) {
			return false
		}
	case "speaks":
		if j+2 >= b || !ws[j+2].cap {
			return false
		}
	}
	return true
}

// men and women among relations, for "he" and "she".
var (
	menNamed   = lexicon.NewSet(`dad father brother husband son grandpa grandfather uncle boyfriend nephew`)
	womenNamed = lexicon.NewSet(`mom mum mother sister wife daughter grandma grandmother aunt girlfriend niece`)
)

// personNamed is the relation of the user u names ("my sister", "your dad"
// said to the user, "Mom"), or "".
func personNamed(u *utterance) string {
	ws := u.words
	for k := range ws {
		w, next := ws[k].lower, wordAt(ws, k+1)
		switch {
		case (w == "my" && u.isUser || w == "your" && !u.isUser) && (inSet(menNamed, next) || inSet(womenNamed, next) || inSet(neutralNamed, next)):
			return next
		case ws[k].is(wcKin) && (inSet(menNamed, w) || inSet(womenNamed, w)):
			return w
		}
	}
	return ""
}

// pronounFact reads a fact about the person last named (rel) when "he" or
// "she" opens ws[s:b]: "he's been into woodworking since he retired".
func pronounFact(ws []cword, s, b int, rel string) (memoryCand, bool) {
	w := wordAt(ws, s)
	he, she := w == "he" || w == "he's", w == "she" || w == "she's"
	owner := "User's " + rel
	known := he && inSet(menNamed, rel) || she && inSet(womenNamed, rel) || (he || she) && inSet(neutralNamed, rel)
	if name, ok := strings.CutPrefix(rel, "="); ok {
		owner, known = name, he || she // "Talked to Priya today, she's just started a new job"
	}
	if rel == "" || !known {
		return memoryCand{}, false
	}
	var rest string
	if strings.HasSuffix(w, "'s") {
		j, verb := s+1, "is"
		if wordAt(ws, j) == "been" {
			j, verb = j+1, "has been"
		}
		if wordAt(ws, j) == "just" && verb == "is" {
			j++
		}
		next := wordAt(ws, j)
		switch {
		case (next == "started" || next == "got") && careerClaim(ws, j+1, b):
			verb = "has"
			if wordAt(ws, j-1) == "just" {
				verb = "has just"
			}
		case !inSet(identityWords, next) && next != "into" && next != "from" && !isAn(ws, j):
			return memoryCand{}, false
		}
		rest = verb + " " + factWords(ws, j, b)
	} else {
		if !relationClaim(ws, s, b) {
			return memoryCand{}, false
		}
		rest = factWords(ws, s+1, b)
	}
	if strings.TrimSpace(rest) == "" {
		return memoryCand{}, false
	}
	return memoryCand{content: owner + " " + strings.TrimSpace(rest), category: appliance.MemorySystem}, true
}

// friendNamed is "=Name" for a person the user names by name in passing
// ("Talked to Priya today", "had lunch with Sara"), so that "she" and "her"
// after it are that person; "" when u names no one so. Only a transcript
// with capitals shows a name.
func friendNamed(u *utterance) string {
	if !u.isUser {
		return ""
	}
	ws := u.words
	for k := 1; k < len(ws); k++ {
		switch ws[k-1].lower {
		case "to", "with", "saw", "met", "visited":
		default:
			continue
		}
		w := ws[k]
		if w.cap && !inSet(stopWords, w.lower) && !inSet(notOwners, w.lower) && weekdayOf(w.lower) < 0 && monthOf(ws, k) == 0 &&
			!inSet(relations, w.lower) && !inSet(kin, w.lower) && !strings.HasSuffix(w.lower, "'s") {
			return "=" + w.text
		}
	}
	return ""
}

// friendsRelationFact reads a fact about a named person's relation through
// "her" or "his": "Her husband Dev is allergic to shellfish" after "Talked
// to Priya".
func friendsRelationFact(ws []cword, s, b int, named string) (memoryCand, bool) {
	name, ok := strings.CutPrefix(named, "=")
	if w := wordAt(ws, s); !ok || w != "her" && w != "his" {
		return memoryCand{}, false
	}
	view := append([]cword(nil), ws...)
	view[s].lower, view[s].cls = "my", 0
	m, ok := relationFact(view, s, b, true)
	if !ok {
		return memoryCand{}, false
	}
	m.content = name + "'s " + strings.TrimPrefix(m.content, "User's ")
	return m, true
}

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
var relationVerbs = lexicon.NewSet(`likes loves hates wants enjoys prefers lives works turns has is plays speaks`)

// relationFact reads a fact about one of the user's people: "my sister
// lives in Porto", "Mom likes gardening", "your brother is vegetarian now"
// (said to the user).
func relationFact(ws []cword, s, b int, isUser bool) (memoryCand, bool) {
	j := s
	switch w := wordAt(ws, j); {
	case w == "my" && isUser, w == "your" && !isUser:
		j++
	case inSet(kin, w):
	default:
		return memoryCand{}, false
	}
	rel := wordAt(ws, j)
	if !inSet(relations, rel) || inSet(ownFacts, rel) || !relationClaim(ws, j, b) {
		return memoryCand{}, false
	}
	rest := factWords(ws, j+1, b)
	if rest == "" {
		return memoryCand{}, false
	}
	return memoryCand{content: "User's " + ws[j].lower + " " + rest, category: appliance.MemorySystem}, true
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
		if !inSet(identityWords, next) && next != "into" && next != "from" {
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
		case (w == "my" && u.isUser || w == "your" && !u.isUser) && (inSet(menNamed, next) || inSet(womenNamed, next)):
			return next
		case inSet(kin, w) && (inSet(menNamed, w) || inSet(womenNamed, w)):
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
	if rel == "" || !(he && inSet(menNamed, rel) || she && inSet(womenNamed, rel)) {
		return memoryCand{}, false
	}
	var rest string
	if strings.HasSuffix(w, "'s") {
		j, verb := s+1, "is"
		if wordAt(ws, j) == "been" {
			j, verb = j+1, "has been"
		}
		next := wordAt(ws, j)
		if !inSet(identityWords, next) && next != "into" && next != "from" {
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
	return memoryCand{content: "User's " + rel + " " + strings.TrimSpace(rest), category: appliance.MemorySystem}, true
}

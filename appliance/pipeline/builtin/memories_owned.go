package builtin

import (
	"strings"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/pipeline/lexicon"
)

// pets whose name, said after them, is worth keeping: "my dog Biscuit".
var pets = lexicon.NewSet(`dog cat puppy kitten rabbit bunny hamster parrot horse pony tortoise turtle`)

// conditionCues name a condition by what its owner manages: whoever checks
// "your sugar" or takes "my insulin" lives with diabetes.
var conditionCues = map[string]string{"sugar": "diabetes", "insulin": "diabetes", "glucose": "diabetes"}

// dietWords after "sugar" make it a diet, not a condition: "your sugar intake".
var dietWords = lexicon.NewSet(`intake cravings consumption habit`)

// nameFollowers may follow a pet's name in a sentence about it: "my dog
// Biscuit is limping", "our cat Luna hates the vet".
var nameFollowers = lexicon.NewSet(`is was has had needs keeps hates loves likes got just still`)

// ownedFact reads what a possessive says the user has: a condition ("my
// asthma", "your diabetes" said to the user, "check your sugar") or a
// named pet ("my dog Biscuit is limping"). The user says "my" and "our",
// another speaker "your".
func ownedFact(ws []cword, s, b int, isUser bool) (memoryCand, bool) {
	switch w := wordAt(ws, s); {
	case (w == "my" || w == "our") && isUser, w == "your" && !isUser:
	default:
		return memoryCand{}, false
	}
	j := s + 1
	if wordAt(ws, j) == "blood" {
		j++ // "your blood sugar"
	}
	w := wordAt(ws, j)
	if j >= b {
		return memoryCand{}, false
	}
	sys := func(c string) (memoryCand, bool) {
		return memoryCand{content: c, category: appliance.MemorySystem}, true
	}
	if c, ok := conditionCues[w]; ok && !inSet(dietWords, wordAt(ws, j+1)) {
		return sys("User has " + c)
	}
	if inSet(conditions, w) && w != "allergies" {
		return sys("User has " + w)
	}
	if inSet(pets, w) && j+1 < b {
		name := ws[j+1]
		// the name is a word of its own: written with a capital, or
		// followed by what is said about the pet ("biscuit is limping")
		if !hasLetter(name.lower) || inSet(stopWords, name.lower) || inSet(smallWords, name.lower) ||
			!name.cap && !inSet(nameFollowers, wordAt(ws, j+2)) || strings.HasSuffix(name.lower, "'s") {
			return memoryCand{}, false
		}
		return sys("User has a " + w + " named " + strings.ToUpper(name.lower[:1]) + name.lower[1:])
	}
	return memoryCand{}, false
}

package builtin

import (
	"strings"

	"github.com/hearth-appliance/hearth/appliance"
)

// newRole reads a role the user is taking on, named by someone who speaks
// to them about it: "how are you feeling about the team lead role",
// "congrats on your new job as head chef". A role is kept once it has a
// name: "the role" alone says nothing to remember.
func (dl *dialogue) newRole(u *utterance) (memoryCand, bool) {
	if u.isUser || !dl.userKnown {
		return memoryCand{}, false
	}
	ws := u.words
	addressed := false
	for k, w := range ws {
		if w.lower == "you" || w.lower == "your" || w.lower == "you're" {
			addressed = true
		}
		if !addressed || !inSet(jobWords, w.lower) || k < 2 {
			continue
		}
		if k+1 < len(ws) && w.punct == 0 && ws[k+1].lower != "and" && ws[k+1].lower != "so" {
			continue // "the team lead role description" is about a document
		}
		// the role's name: the words between "the"/"your" (or "new") and
		// "role", at most three, none a stop word
		j := k
		for j > 0 && k-j < 3 && !inSet(stopWords, ws[j-1].lower) && ws[j-1].lower != "new" && ws[j-1].punct == 0 {
			j--
		}
		det := wordAt(ws, j-1)
		if det == "new" {
			det = wordAt(ws, j-2)
		}
		if j == k || det != "the" && det != "your" {
			continue
		}
		names := make([]string, 0, k-j)
		for _, w := range ws[j:k] {
			names = append(names, w.lower)
		}
		return memoryCand{content: "User is moving into a " + strings.Join(names, " ") + " " + w.lower,
			category: appliance.MemorySystem}, true
	}
	return memoryCand{}, false
}

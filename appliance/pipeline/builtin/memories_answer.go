package builtin

import (
	"strings"

	"github.com/hearth-appliance/hearth/appliance"
)

// Facts given as answers. A clinician asks "Any allergies I should know
// about?" and the user answers "Penicillin. I break out in hives.": the
// answer names what the user is allergic to, though it says no verb.

// allergyAnswer reads the user's answer in utterance i to a question about
// allergies just before it; "no", "none" and "not that I know of" are none.
func (dl *dialogue) allergyAnswer(i int) (memoryCand, bool) {
	u := &dl.utts[i]
	if !u.isUser || i == 0 || dl.utts[i-1].isUser {
		return memoryCand{}, false
	}
	if pw := dl.utts[i-1].words; !dl.utts[i-1].question && skipDiscourse(pw, 0, len(pw)) < len(pw) && pw[skipDiscourse(pw, 0, len(pw))].lower != "any" {
		return memoryCand{}, false // "any allergies", as a recogniser writes the question
	}
	asked := false
	for _, w := range dl.utts[i-1].words {
		if strings.HasPrefix(w.lower, "allerg") {
			asked = true
			break
		}
	}
	if !asked {
		return memoryCand{}, false
	}
	ws := u.words
	s := skipDiscourse(ws, 0, len(ws))
	if s >= len(ws) || inSet(refuseWords, ws[s].lower) || ws[s].lower == "none" || ws[s].lower == "nothing" {
		return memoryCand{}, false
	}
	if ws[s].lower == "just" || ws[s].lower == "only" {
		s++
	}
	var np []string
	k := s
	for ; k < len(ws) && len(np) < 4; k++ {
		w := ws[k].lower
		if inSet(subjectPronouns, w) && len(np) > 0 {
			break // "penicillin i break out in hives", unpunctuated
		}
		if inSet(stopWords, w) && w != "and" || inSet(subjectPronouns, w) {
			return memoryCand{}, false // a sentence, not a name: left to the other shapes
		}
		np = append(np, w)
		if ws[k].punct != 0 {
			break // the answer ends at its punctuation
		}
	}
	if len(np) == 0 || len(np) == 4 || np[len(np)-1] == "and" {
		return memoryCand{}, false
	}
	return memoryCand{content: "User is allergic to " + strings.Join(np, " "), category: appliance.MemorySystem}, true
}

package builtin

import "github.com/hearth-appliance/hearth/appliance/pipeline/lexicon"

// willMiss: the speakers say in clause ws[a:b] that they will not be at the
// plan it names ("I can't make the meeting on Friday at 3", "we won't be
// able to come to the party on Saturday"): a speaker for subject, then a
// negated ability or will, then a verb of attending. It is the clause's
// structure, not a phrase list: any negation of "can", "will" or "be able
// to" before any attending verb.
func willMiss(ws []cword, a, b int) bool {
	for j := a; j < b; j++ {
		if !inSet(negatedAbility, ws[j].lower) && !(ws[j].lower == "not" && j > a && inSet(abilityAux, ws[j-1].lower)) {
			continue
		}
		if !speakerBefore(ws, a, j) {
			return false
		}
		for k := j + 1; k < b && k <= j+4; k++ {
			w := ws[k].lower
			if inSet(attendingVerbs, w) {
				return true
			}
			if !inSet(abilityFill, w) {
				break
			}
			if ws[k].punct != 0 {
				break
			}
		}
		return false
	}
	return false
}

// speakerBefore: a first person pronoun is the subject just before ws[j].
func speakerBefore(ws []cword, a, j int) bool {
	for k := j - 1; k >= a && k >= j-3; k-- {
		if inSet(firstPerson, ws[k].lower) {
			return true
		}
	}
	return false
}

var (
	negatedAbility = lexicon.NewSet(`can't cannot couldn't won't unable`)
	abilityAux     = lexicon.NewSet(`can will could am are i'm we're`)
	abilityFill    = lexicon.NewSet(`be able to not really actually possibly`)
	attendingVerbs = lexicon.NewSet(`make attend come go join there`)
)

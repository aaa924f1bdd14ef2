package builtin

import (
	"strings"

	"github.com/hearth-appliance/hearth/appliance/pipeline/lexicon"
)

// Obligations said in the passive. "The electricity bill has to be paid by
// the end of the month", "the forms need to be signed before Friday": the
// user, saying it, owns the deed, written in the active ("Pay the
// electricity bill").

// participles maps irregular past participles to their verbs; regular
// ones lose their "-ed" ("renewed" → "renew").
var participles = map[string]string{
	"paid": "pay", "sent": "send", "done": "do", "written": "write", "bought": "buy", "made": "make",
	"taken": "take", "given": "give", "brought": "bring", "sold": "sell", "built": "build", "put": "put",
	"picked": "pick", "set": "set", "read": "read",
}

// obligationLinks join the thing to its deed: "has to be", "needs to be",
// "must be", "should be".
var obligationLinks = [][]string{
	{"has", "to", "be"}, {"have", "to", "be"}, {"needs", "to", "be"}, {"need", "to", "be"},
	{"must", "be"}, {"should", "be"}, {"has", "got", "to", "be"}, {"'s", "got", "to", "be"},
}

// noDeedWords after the link are states, not deeds: "has to be ready",
// "should be fine".
var noDeedWords = lexicon.NewSet(`ready fine done good perfect okay ok there here back final`)

// verbOfParticiple is the task verb of a past participle, "" when it is
// none.
func verbOfParticiple(w string) string {
	if v, ok := participles[w]; ok {
		return v
	}
	for _, cut := range []int{2, 1, 3} { // "renewed", "filed", "cancelled"
		if len(w) > cut+2 && strings.HasSuffix(w, "ed") {
			if v := w[:len(w)-cut]; inSet(taskVerbs, v) {
				return v
			}
		}
	}
	return ""
}

// mustBeDone reads a passive obligation in the user's clause ws[a:b]: the
// thing said first, the link, a participle of a task verb, the rest.
func (dl *dialogue) mustBeDone(ws []cword, a, b int, used []bool, tm timing) (task, bool) {
	s := skipDiscourse(ws, a, b)
	if s >= b || !inSet(frontDeterminers, ws[s].lower) || inSet(frontPronouns, ws[s].lower) {
		return task{}, false
	}
	for j := s + 2; j < b && j <= s+5; j++ {
		n := matchAt(ws, j, b, obligationLinks)
		if n == 0 {
			if ws[j].is(wcStop) && !inSet(npInnerWords, ws[j].lower) {
				return task{}, false
			}
			continue
		}
		p := j + n
		if p >= b || inSet(noDeedWords, ws[p].lower) {
			return task{}, false
		}
		verb := verbOfParticiple(ws[p].lower)
		if verb == "" {
			return task{}, false
		}
		var nws []cword
		var nused []bool
		nws = append(nws, cword{text: verb, lower: verb})
		nused = append(nused, false)
		if p+1 < b && ws[p+1].is(wcKeepAtEnd) {
			nws = append(nws, ws[p+1])
			nused = append(nused, used[p+1])
			p++
		}
		for k := s; k < j; k++ {
			w := ws[k]
			if k == s {
				w.text = w.lower
			}
			nws = append(nws, w)
			nused = append(nused, false)
		}
		for k := p + 1; k < b; k++ {
			nws = append(nws, ws[k])
			nused = append(nused, used[k])
		}
		desc, topic, vague := describe(nws, 0, len(nws), nused, true, "")
		if desc == "" || vague {
			return task{}, false
		}
		due, _ := tm.due(ws, a, b, nil)
		return task{verb: lexicon.Stem(verb), desc: desc, topic: topic, due: due}, true
	}
	return task{}, false
}

package builtin

import (
	"strings"

	"github.com/hearth-appliance/hearth/appliance/pipeline/lexicon"
)

// askedDeed reads the deed a pro-verb stands for ("do that", "do it") from
// the question just before, asked by another speaker, whether the user has
// done it: "Have you booked the train?" "Not yet, I need to do that this
// week." gives "Book the train". v is the user's verb; "" when it is not
// "do" with a pronoun or no such question was asked.
func (dl *dialogue) askedDeed(i int, ws []cword, v int) (string, []string) {
	if wordAt(ws, v) != "do" || !inSet(doneObjects, wordAt(ws, v+1)) || i == 0 {
		return "", nil
	}
	q := &dl.utts[i-1]
	if q.speaker == dl.utts[i].speaker {
		return "", nil
	}
	qw := q.words
	for k := 0; k+3 < len(qw) && k < 3; k++ {
		if (qw[k].lower == "have" || qw[k].lower == "did") && qw[k+1].lower == "you" {
			base := baseVerb(qw[k+2].lower)
			if !inSet(taskVerbs, base) || !inSet(determiners, qw[k+3].lower) {
				return "", nil
			}
			words := []string{capitalise(base)}
			var topic []string
			for m := k + 3; m < len(qw) && m < k+9; m++ {
				w := qw[m]
				if w.lower == "yet" || w.lower == "already" {
					break
				}
				words = append(words, strings.TrimRight(w.text, "?.,!"))
				if isTaskContent(w.lower) {
					topic = append(topic, lexicon.Stem(w.lower))
				}
				if w.punct != 0 {
					break
				}
			}
			if len(topic) == 0 {
				return "", nil
			}
			return strings.Join(words, " "), topic
		}
	}
	return "", nil
}

// doneObjects stand for the deed asked about after "do".
var doneObjects = lexicon.NewSet(`that it this`)

// baseVerb is the plain form of a past participle or past tense: "booked"
// → "book", "sent" → "send".
func baseVerb(w string) string {
	if b, ok := irregularPast[w]; ok {
		return b
	}
	if base := strings.TrimSuffix(w, "ed"); base != w {
		switch {
		case inSet(taskVerbs, base):
			return base
		case inSet(taskVerbs, base+"e"):
			return base + "e" // "scheduled" → "schedule"
		case strings.HasSuffix(base, "i") && inSet(taskVerbs, strings.TrimSuffix(base, "i")+"y"):
			return strings.TrimSuffix(base, "i") + "y" // "replied" → "reply"
		case len(base) > 2 && base[len(base)-1] == base[len(base)-2] && inSet(taskVerbs, base[:len(base)-1]):
			return base[:len(base)-1] // "dropped" → "drop"
		}
	}
	return w
}

var irregularPast = map[string]string{
	"sent": "send", "paid": "pay", "bought": "buy", "written": "write", "wrote": "write", "made": "make",
	"told": "tell", "found": "find", "got": "get", "gotten": "get", "taken": "take", "took": "take",
	"brought": "bring", "put": "put", "done": "do", "given": "give", "drawn": "draw",
}

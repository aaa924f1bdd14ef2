package builtin

import (
	"strings"

	"github.com/hearth-appliance/hearth/appliance/pipeline/lexicon"
)

// Collecting what is made ready. A shop, a pharmacy or a repairer says when
// something will be ready ("your prescription is ready", "the trousers …
// will be ready next Tuesday", "when will the inhaler come in" "should be
// here thursday"), and the user says they will come for it ("I'll come by
// after work around five thirty", "okay I'll come back thursday
// afternoon"): the visit is for picking up that thing, which is the task.

// readyWindow is how many utterances back the readiness is looked for.
const readyWindow = 3

// readyThing is the thing another speaker said will be ready in the
// utterances just before utterance i, and the verb for fetching it; ""
// when none was.
func (dl *dialogue) readyThing(i int) (thing, verb string) {
	for j := i - 1; j >= 0 && j >= i-readyWindow; j-- {
		v := &dl.utts[j]
		if v.isUser && !v.question || !readyStatement(v.words) {
			continue
		}
		// the thing is named in the readiness or just before it ("The
		// trousers need two centimetres off. They'll be ready next Tuesday.")
		order := []bool{false, true}
		if pluralPronoun(v.words) {
			order = []bool{true, false} // "you can collect them", "they'll be ready"
		}
		for _, plural := range order {
			if np := dl.definiteReferent(j, len(v.words), plural); np != "" && !inSet(notCollected, lastWord(np)) {
				return np, collectVerb(v.words)
			}
		}
		return "", ""
	}
	return "", ""
}

// collectVerb is the deed the readiness names ("you can collect it after
// two"), "Pick up" when it names none.
func collectVerb(ws []cword) string {
	for k := range ws {
		if ws[k].lower == "collect" {
			return "Collect"
		}
	}
	return "Pick up"
}

// readyStatement: ws says something will be ready or in ("it's ready", "ready
// for pickup", "should be here thursday", "will come in on monday").
func readyStatement(ws []cword) bool {
	for k := range ws {
		switch ws[k].lower {
		case "ready":
			return true
		case "in":
			if p := wordAt(ws, k-1); p == "come" || p == "comes" || p == "stock" {
				return true
			}
		case "here":
			if wordAt(ws, k-1) == "be" {
				return true
			}
		}
	}
	return false
}

// notCollected are nouns a "the …" near a readiness names that are not what
// is picked up: "the number is 44729", "the evening".
var notCollected = lexicon.NewSet(`number evening morning afternoon time way shop store pharmacy desk counter`)

// lastWord is the lowercased head of a noun phrase.
func lastWord(np string) string {
	return strings.ToLower(np[strings.LastIndexByte(np, ' ')+1:])
}

// comeFor: the verb at ws[v] brings the user to where the thing waits ("come
// by", "come back", "come around", "swing by", "stop by", "pop in").
func comeFor(ws []cword, v int) bool {
	switch ws[v].lower {
	case "come", "swing", "stop", "pop", "drop":
		switch wordAt(ws, v+1) {
		case "by", "back", "around", "round", "in", "over", "down":
			return true
		}
	}
	return false
}

// pluralPronoun: ws points at plural things ("collect them", "they'll be ready").
func pluralPronoun(ws []cword) bool {
	for k := range ws {
		switch ws[k].lower {
		case "them", "they", "they'll", "they're", "these", "those":
			return true
		}
	}
	return false
}

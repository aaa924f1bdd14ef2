package builtin

import (
	"strings"

	"github.com/hearth-appliance/hearth/appliance/pipeline/lexicon"
)

// Pronoun objects. A task said with "it", "them", "those", "these" or "three
// more" ("I'll pick them up Wednesday after work", "I'll sign up for it this
// week") is about the thing named just before ("the wedding invitations will
// be printed by next Wednesday", "I'd suggest the management course in
// January"); the task names that thing, as a person writing it down would.

// referentWindow is how many utterances back a pronoun's thing is looked for.
const referentWindow = 3

// resolvedObject rewrites desc, a vague task whose verb is a task verb and
// whose object is a pronoun or "N more", with the noun phrase that it points
// at, and returns it with the phrase; "" when there is none.
func (dl *dialogue) resolvedObject(i, before int, desc, verb string, body []cword) (string, string) {
	if !inSet(taskVerbs, verb) || inSet(stativeVerbs, verb) {
		return "", ""
	}
	words := strings.Fields(desc)
	if !hasPronounObject(words) {
		// the pronoun went with trailing noise ("sign up for it" → "Sign
		// up"): read the body as said
		words = words[:0]
		for k, w := range body {
			words = append(words, w.text)
			if k == 5 || w.lower == "it" || w.lower == "them" || w.lower == "those" || w.lower == "these" || w.punct != 0 {
				break
			}
		}
		if len(words) > 0 {
			words[0] = capitalise(words[0])
		}
	}
	p := -1
	for k := 1; k < len(words) && k <= 3; k++ {
		if w := strings.ToLower(words[k]); w == "it" || w == "them" || w == "those" || w == "these" {
			p = k
			break
		}
	}
	if p < 0 {
		// "I'll reach out to three more": more of the things just named
		if k := countedMore(words); k > 0 {
			np := dl.definiteReferent(i, before, true)
			if np == "" {
				return "", ""
			}
			out := append(append(append([]string{}, words[:k+1]...), np), words[k+1:]...)
			return strings.Join(out, " "), np
		}
	}
	if p < 0 || p+1 < len(words) && !inSet(keepAtEnd, strings.ToLower(words[p+1])) && !inSet(cueStarts, strings.ToLower(words[p+1])) {
		return "", "" // "take it easy", "get them a present": not a bare object
	}
	if inSet(lightTaskVerbs, verb) && (p+1 == len(words) || inSet(keepAtEnd, strings.ToLower(words[p+1])) && p+2 == len(words)) {
		return "", "" // "I'll take it" accepts an offer; "I'll grab it on the way home" fetches the thing
	}
	np := dl.definiteReferent(i, before, strings.ToLower(words[p]) != "it")
	if np == "" {
		return "", ""
	}
	out := append([]string{}, words[:p]...)
	if p+1 < len(words) && inSet(keepAtEnd, strings.ToLower(words[p+1])) && (p+2 == len(words) || !inSet(determiners, strings.ToLower(words[p+2]))) {
		// "pick them up" → "pick up the …"; "on the way home" is no particle
		out = append(out, words[p+1])
		p++
	}
	out = append(out, "the", np)
	out = append(out, words[p+1:]...)
	return strings.Join(out, " "), np
}

// lightTaskVerbs say little of the deed when nothing follows their object:
// "I'll take it" accepts an offer.
var lightTaskVerbs = lexicon.NewSet(`take get make put grab move`)

// pronounObject: the object of the verb at ws[v] is a pronoun ("grab it",
// "pick them up").
// "Send them the budget report" gives "them" the thing: they receive it.
func pronounObject(ws []cword, v int) bool {
	w := wordAt(ws, v+1)
	if w != "it" && w != "them" && w != "those" && w != "these" {
		return false
	}
	if next := wordAt(ws, v+2); inSet(determiners, next) {
		_, n := ordinalAt(ws, v+3)
		return next == "the" && n > 0 // "pick them up the 3rd"
	}
	return true
}

func hasPronounObject(words []string) bool {
	for k := 1; k < len(words) && k <= 3; k++ {
		if w := strings.ToLower(words[k]); w == "it" || w == "them" || w == "those" || w == "these" {
			return true
		}
	}
	return countedMore(words) > 0
}

// countedMore is where "more" follows a number at the end of a task ("reach
// out to three more"), 0 when it does not.
func countedMore(words []string) int {
	k := len(words) - 1
	if k < 2 || strings.ToLower(words[k]) != "more" {
		return 0
	}
	if _, n := numberAt([]cword{{lower: strings.ToLower(words[k-1])}}, 0); n == 0 && strings.ToLower(words[k-1]) != "a" && strings.ToLower(words[k-1]) != "few" {
		return 0
	}
	return k
}

// referentDeterminers open a noun phrase a later "it" can point at: "the
// invitations", "a package for you", "your prescription".
var referentDeterminers = lexicon.NewSet(`the a an your my our any some`)

// definiteReferent is the first "the <noun phrase>" (or "a", "your" …) in the nearest of the
// utterances before (or in utterance i before word before) that has one,
// plural for "them", singular for "it".
func (dl *dialogue) definiteReferent(i, before int, plural bool) string {
	for j := i; j >= 0 && j >= i-referentWindow; j-- {
		fallback := ""
		ws := dl.utts[j].words
		end := len(ws)
		if j == i {
			end = before
		}
		for k := 0; k+1 < end; k++ {
			if !inSet(referentDeterminers, ws[k].lower) || ws[k].punct != 0 {
				continue
			}
			var np []string
			m := k + 1
			for ; m < end && len(np) < 3 && (titleModifier(ws[m]) || inSet(referentAdjectives, ws[m].lower)) && !ws[m].is(wcSubjectPronoun) && !inSet(cueStarts, ws[m].lower) && !dayWord(ws, m); m++ {
				np = append(np, ws[m].text)
				if ws[m].punct != 0 {
					break
				}
			}
			if len(np) == 0 {
				continue
			}
			// the longest phrase whose head agrees with the pronoun: "the
			// kids thanksgiving weekend" → "kids" for "them"
			subject := m < end && ws[m-1].punct == 0 && (inSet(subjectVerbs, ws[m].lower) || inSet(copulas, ws[m].lower) && datedAfter(ws, m+1))
			for len(np) > 0 {
				head := strings.ToLower(np[len(np)-1])
				if strings.HasSuffix(head, "s") == plural && !inSet(tradesPeople, head) && !inSet(professionals, head) {
					if !subject {
						return strings.Join(np, " ")
					}
					// "the school called, they need the consent form
					// back": the one who did something is no thing to
					// fill in, unless nothing else is named
					if fallback == "" {
						fallback = strings.Join(np, " ")
					}
					break
				}
				np = np[:len(np)-1]
			}
		}
		if fallback != "" {
			return fallback
		}
	}
	return ""
}

// subjectVerbs after a noun phrase make it the one acting, not the thing
// acted on ("the school called"), and so does a copula before a time: "the
// trip is on wednesday" is a plan, which no one fills in.
var subjectVerbs = lexicon.NewSet(`called rang phoned emailed texted wrote said says wants wanted asked asks
	told tells rang messaged`)

// dayWord: ws[m] names a day, which no pronoun stands for ("the 1st").
func dayWord(ws []cword, m int) bool {
	_, n := ordinalAt(ws, m)
	_, month := months[ws[m].lower]
	return n > 0 || month || weekdayOf(ws[m].lower) >= 0
}

// referentAdjectives are light words that still belong to the thing named:
// "your new glasses".
var referentAdjectives = lexicon.NewSet(`new old spare other`)

// datedAfter: a time follows ws[k] ("on wednesday", "at ten", "tomorrow").
func datedAfter(ws []cword, k int) bool {
	if w := wordAt(ws, k); w == "on" || w == "at" {
		k++
	}
	return k < len(ws) && ws[k].lower != "the" && startsCue(ws, k)
}

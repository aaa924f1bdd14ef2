package builtin

import (
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/pipeline/lexicon"
)

// Visiting someone. The user going to see a person on a day is a plan:
// "i'll go and see her tomorrow afternoon", "we're visiting my parents on
// Saturday", "I'll go see Grandma on Sunday at 3". It is titled by whom the
// user visits; "her" and "him" take the relation last named ("your aunt
// june is in hospital again" … "i'll go and see her"). "I'll see you
// tomorrow" is a goodbye, not a visit.

// visitPerson reads such a plan in clause ws[a:b] of utterance i.
func (dl *dialogue) visitPerson(i int, ws []cword, a, b int, tm timing) (appliance.Event, bool) {
	u := &dl.utts[i]
	if !u.isUser || u.question {
		return appliance.Event{}, false
	}
	k := -1
	for j := a; j < b; j++ {
		w := ws[j].lower
		if (w == "see" && (hasSeq(ws, j-2, "go", "and") || wordAt(ws, j-1) == "go" || hasSeq(ws, j-2, "come", "and")) || w == "visit" || w == "visiting") && j+1 < b {
			k = j
			break
		}
	}
	if k < 0 {
		return appliance.Event{}, false
	}
	who := dl.visited(i, ws, k+1, b)
	if who == "" {
		return appliance.Event{}, false
	}
	for j := a; j < b; j++ {
		if pastAt(ws, j) || inSet(proposalWords, ws[j].lower) {
			return appliance.Event{}, false
		}
	}
	c := scanCues(ws, a, b, tm.ref, nil)
	if !c.date || c.past || c.recurring || c.rel || c.deadline {
		return appliance.Event{}, false
	}
	if !c.clock && c.part == 0 {
		c.part = morningHour // a day without an hour, as a date-only plan
	}
	r, ok := c.resolve(tm.start, tm.loc)
	if !ok || r.at.Before(tm.start) {
		return appliance.Event{}, false
	}
	return appliance.Event{
		Title:       "Visit " + who,
		Description: eventDescription(u, a, b),
		Start:       r.at.Truncate(time.Minute),
		Duration:    appliance.DefaultEventMinutes,
	}, true
}

// visited is whom ws[k:b] names as visited: a relation ("my parents",
// "grandma"), a capitalised name, or "her"/"him"/"them" standing for the
// relation last named in the three utterances before; "" for anyone else.
func (dl *dialogue) visited(i int, ws []cword, k, b int) string {
	w := wordAt(ws, k)
	switch {
	case (w == "my" || w == "your") && k+1 < b && (inSet(relations, wordAt(ws, k+1)) || inSet(visitedPeople, wordAt(ws, k+1))) && !inSet(ownFacts, wordAt(ws, k+1)):
		return capitalise(ws[k+1].lower)
	case inSet(kin, w) || inSet(visitedPeople, w) && w != "parents" && w != "grandparents":
		return capitalise(w)
	case ws[k].cap && !inSet(stopWords, w):
		return ws[k].text
	case w == "her" || w == "him" || w == "them":
		for j := i - 1; j >= 0 && j >= i-3; j-- {
			pw := dl.utts[j].words
			for m := 0; m+1 < len(pw); m++ {
				if (pw[m].lower == "your" || pw[m].lower == "my") && inSet(relations, pw[m+1].lower) && !inSet(ownFacts, pw[m+1].lower) {
					who := capitalise(pw[m+1].lower)
					if m+2 < len(pw) && personName(pw, m+2) && !inSet(relationVerbs, pw[m+2].lower) {
						who += " " + capitalise(pw[m+2].lower) // "your aunt june"
					}
					return who
				}
			}
			if rel := personNamed(&dl.utts[j]); rel != "" {
				return capitalise(rel)
			}
		}
	}
	return ""
}

// visitedPeople are people one goes to see beside relations.
var visitedPeople = lexicon.NewSet(`parents grandparents folks in-laws granny nan`)

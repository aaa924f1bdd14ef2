package store_test

import (
	"math/rand/v2"
	"strings"
)

// recallSet is a kind of data the vector retriever is measured on: how
// memories are written and how a query for them is.
type recallSet struct {
	name  string
	text  func(r *rand.Rand) string
	query func(r *rand.Rand) string
}

// recallSets: the Zipf word soup the retriever was first tuned on, then
// two that real notes look like. Template sentences share most of their
// words, so their vectors crowd together and differ by a name or a place;
// a person who says the same things every week leaves hundreds of near
// copies, whose exact similarities to a query differ in the third decimal
// or not at all.
var recallSets = []recallSet{
	{name: "words", text: benchText, query: benchQuery},
	{name: "templates", text: templateText, query: templateQuery},
	{name: "repeats", text: repeatText, query: repeatQuery},
}

var (
	slotNames  = strings.Fields(`Ada Farid Lena Marco Priya Tomas Yuki Omar Grace Ivan Nadia Pablo Sofia Kwame Mei Lars Amara Diego Hana Felix Zainab Oskar Rosa Tariq Elena Jonas Aiko Bruno Chloe Dmitri`)
	slotPlaces = strings.Fields(`Lagos Lisbon Berlin Osaka Nairobi Quito Oslo Dublin Lima Accra Porto Krakow Hanoi Austin Denver Leeds Turin Cairo Seville Bergen`)
	slotThings = strings.Fields(`passport bike laptop guitar camera umbrella keys charger tent stroller blender drill kettle ladder sofa printer scooter lamp jacket suitcase`)
	slotDays   = strings.Fields(`Monday Tuesday Wednesday Thursday Friday Saturday Sunday tomorrow tonight weekend`)
	templates  = []string{
		"{n} is taking the {t} to {p} on {d}",
		"remind me to call {n} about the {t} on {d}",
		"{n} said the flight to {p} leaves {d} morning",
		"I lent my {t} to {n} and need it back by {d}",
		"{n} wants to move to {p} next year",
		"pick up the {t} from {n}'s place {d}",
		"we should visit {n} in {p} sometime",
		"{n} is allergic to peanuts so no satay at dinner {d}",
		"the {t} broke again, ask {n} to fix it {d}",
		"{n} and I are planning a trip to {p} with the {t}",
		"don't forget {n}'s birthday on {d}, maybe a new {t}",
		"{n} recommended a dentist near the station in {p}",
		"book a table for four on {d} with {n}",
		"{n} sold the old {t} and bought one in {p}",
		"meeting with {n} about the budget {d} at ten",
		"{n}'s daughter starts school in {p} on {d}",
	}
	fillers = strings.Fields(`really again actually honestly definitely probably maybe just also still`)
)

// fillTemplate writes a template with the given slot values.
func fillTemplate(tpl, n, p, t, d string) string {
	return strings.NewReplacer("{n}", n, "{p}", p, "{t}", t, "{d}", d).Replace(tpl)
}

func pick(r *rand.Rand, xs []string) string { return xs[r.IntN(len(xs))] }

// templateText is one of sixteen sentences with its slots filled at random.
func templateText(r *rand.Rand) string {
	return fillTemplate(pick(r, templates), pick(r, slotNames), pick(r, slotPlaces), pick(r, slotThings), pick(r, slotDays))
}

// templateQuery is a whole template sentence (a person retelling a note),
// or two of a note's slots and a word of its template (a person searching).
func templateQuery(r *rand.Rand) string {
	if r.IntN(2) == 0 {
		return templateText(r)
	}
	words := strings.Fields(pick(r, templates))
	return pick(r, slotNames) + " " + pick(r, slotPlaces) + " " + strings.Trim(pick(r, words), "{}'s,")
}

// repeatBase is one of 150 things a person keeps saying.
func repeatBase(r *rand.Rand) string {
	i := r.IntN(150)
	br := rand.New(rand.NewPCG(uint64(i), 99))
	return templateText(br)
}

// repeatText is a thing said again: half the time word for word, else
// with a filler word put in or its day changed.
func repeatText(r *rand.Rand) string {
	s := repeatBase(r)
	switch r.IntN(4) {
	case 0:
		ws := strings.Fields(s)
		at := r.IntN(len(ws) + 1)
		ws = append(ws[:at], append([]string{pick(r, fillers)}, ws[at:]...)...)
		return strings.Join(ws, " ")
	case 1:
		for _, d := range slotDays {
			if strings.Contains(s, d) {
				return strings.Replace(s, d, pick(r, slotDays), 1)
			}
		}
	}
	return s
}

// repeatQuery is a thing said again, as the notes say it.
func repeatQuery(r *rand.Rand) string { return repeatText(r) }

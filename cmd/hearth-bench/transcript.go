package main

import (
	"math/rand/v2"
	"strconv"
	"strings"
)

// segment is one transcript segment of a create-conversation request.
type segment struct {
	Text    string  `json:"text"`
	Speaker string  `json:"speaker"`
	IsUser  bool    `json:"is_user"`
	Start   float64 `json:"start"`
	End     float64 `json:"end"`
}

// Sentence templates by topic. Placeholders in braces are filled from the
// word lists below so that no two conversations are quite alike.
var topics = [][]string{
	// meetings
	{
		"Okay, let's start the {project} sync, we only have {minutes} minutes today.",
		"Can you give us a quick update on where {project} stands?",
		"We shipped the first milestone last {day}, the second one slipped by about a week.",
		"I think {name} is blocked on the design review for the onboarding screens.",
		"Let's move the retro to {day} at {time} so everyone can make it.",
		"The main risk right now is the database migration, it touches every table.",
		"Could you write up the decision and share it with the team by {day}?",
		"We agreed to cut the export feature from this release and revisit it in {month}.",
		"I'll follow up with {name} about the budget numbers after this call.",
		"Does anyone have objections to freezing the scope for {project} today?",
		"The customer asked for a demo before the end of {month}, can we do that?",
		"Let's keep the action items short: {name} owns the rollout plan and I own the docs.",
	},
	// errands
	{
		"I still need to pick up the dry cleaning before {time}.",
		"Can you grab {item} and {item2} on your way back from the {place}?",
		"The pharmacy closes at {time} on {day}, so we should go early.",
		"Remember to drop the package off at the post office, the label is already printed.",
		"The car needs an oil change, I booked the garage for {day} morning.",
		"We are almost out of {item}, I'll add it to the shopping list.",
		"I returned the library books, but there was a fine of {number} dollars.",
		"Don't forget to pay the electricity bill, it's due on the {ordinal}.",
		"The hardware store had the wrong size of {item}, I'll try the {place} instead.",
		"I need to renew my passport before the trip, the form takes about {minutes} minutes.",
		"Could you call the dentist and move my appointment to {day}?",
		"I picked up {item} and {item2}, but they were out of fresh bread.",
	},
	// plans
	{
		"What do you think about driving to the {place} on {day}?",
		"We could have dinner with {name} on {day} around {time}.",
		"If the weather holds, let's go hiking early on {day}.",
		"I want to start training for the {number} kilometer run in {month}.",
		"Let's book the flights to visit my parents before prices go up in {month}.",
		"Maybe we can invite {name} and {name2} over for a barbecue this weekend.",
		"I was thinking we repaint the kitchen in {month}, something lighter.",
		"The concert is on {day} at {time}, we should leave by half past six.",
		"Let's plan a quiet weekend, I'd like to finish reading my book.",
		"Should we take the train this time? It's only about {number} minutes longer.",
		"I'd love to try the new restaurant near the {place} next {day}.",
		"We need to decide about the summer holiday before the end of {month}.",
	},
}

// smallTalk are short replies mixed in from any topic.
var smallTalk = []string{
	"Yeah, that makes sense.",
	"Sure, I can do that.",
	"Hmm, I'm not completely sure about that.",
	"Sounds good to me.",
	"Wait, which {day} do you mean?",
	"Right, I forgot about that.",
	"Okay, let me write that down.",
	"Good point, let's do it that way.",
}

var fill = map[string][]string{
	"name":    {"Alice", "Ben", "Carla", "David", "Emma", "Farid", "Grace", "Hiro", "Ines", "Jonas", "Priya", "Tom"},
	"project": {"billing", "mobile app", "search", "onboarding", "analytics", "data pipeline", "website redesign"},
	"day":     {"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"},
	"month":   {"January", "March", "April", "June", "August", "September", "October", "December"},
	"time":    {"nine", "ten thirty", "noon", "two", "four fifteen", "six", "seven thirty"},
	"minutes": {"fifteen", "twenty", "thirty", "forty five"},
	"item":    {"milk", "eggs", "coffee", "batteries", "light bulbs", "dish soap", "rice", "tomatoes", "screws"},
	"place":   {"lake", "farmers market", "mall", "old town", "coast", "garden center", "museum"},
	"number":  {"five", "ten", "twelve", "twenty", "forty"},
	"ordinal": {"first", "fifth", "tenth", "fifteenth", "twentieth", "last day of the month"},
}

// placeholder aliases that draw from the same list as their base.
var fillAlias = map[string]string{"name2": "name", "item2": "item"}

// expand fills every {placeholder} in tmpl.
func expand(r *rand.Rand, tmpl string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(tmpl, '{')
		if i < 0 {
			b.WriteString(tmpl)
			return b.String()
		}
		j := strings.IndexByte(tmpl[i:], '}')
		if j < 0 {
			b.WriteString(tmpl)
			return b.String()
		}
		b.WriteString(tmpl[:i])
		key := tmpl[i+1 : i+j]
		if a, ok := fillAlias[key]; ok {
			key = a
		}
		if words, ok := fill[key]; ok {
			b.WriteString(words[r.IntN(len(words))])
		} else {
			b.WriteString(tmpl[i : i+j+1])
		}
		tmpl = tmpl[i+j+1:]
	}
}

// genTranscript returns n segments of a two-person conversation about one
// main topic: alternating (mostly) between SPEAKER_00 (the user) and
// SPEAKER_01, with strictly increasing, non-overlapping times whose lengths
// follow the number of words spoken. Times are whole centiseconds so that
// JSON round trips are exact.
func genTranscript(r *rand.Rand, n int) []segment {
	segs := make([]segment, 0, n)
	topic := topics[r.IntN(len(topics))]
	speaker := r.IntN(2)
	cs := r.IntN(200) // start of the next segment, centiseconds
	for i := range n {
		var tmpl string
		switch x := r.IntN(10); {
		case x < 7:
			tmpl = topic[r.IntN(len(topic))]
		case x < 8:
			other := topics[r.IntN(len(topics))]
			tmpl = other[r.IntN(len(other))]
		default:
			tmpl = smallTalk[r.IntN(len(smallTalk))]
		}
		text := expand(r, tmpl)
		if i > 0 && r.IntN(4) != 0 {
			speaker = 1 - speaker
		}
		words := len(strings.Fields(text))
		dur := 60 + words*(30+r.IntN(15)) // ~0.3-0.45 s per word, at least 0.6 s
		segs = append(segs, segment{
			Text:    text,
			Speaker: "SPEAKER_0" + strconv.Itoa(speaker),
			IsUser:  speaker == 0,
			Start:   float64(cs) / 100,
			End:     float64(cs+dur) / 100,
		})
		cs += dur + 10 + r.IntN(120) // a pause of 0.1-1.3 s
	}
	return segs
}

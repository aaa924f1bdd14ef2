package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// The labelled search set: conversations whose transcripts plant names,
// places and things (each topic said in one or two conversations, between
// everyday filler), and queries, each labelled with the conversations it
// should find. Words, names and phrases are said as such in the labelled
// conversations; a paraphrase says the same thing in other words, so it
// measures how far search gets beyond the words said.

// searchTopic is what one or more labelled conversations are about: each
// entry of convs is the planted lines of one conversation.
type searchTopic struct {
	key   string
	convs [][]string
}

var searchTopics = []searchTopic{
	{"dentist", [][]string{{
		"I booked the dentist for Thursday, my back molar has been aching since the weekend.",
		"Doctor Okafor said the old filling might need a crown.",
		"The dental clinic is on Harbour Street next to the bakery.",
		"They charge a fee if you cancel on the same day.",
	}, {
		"Mila lost her first tooth at school today.",
		"We put it under her pillow for the tooth fairy.",
		"She wants to show the gap to the dentist next month.",
	}}},
	{"easter", [][]string{{
		"So where are we going at Easter this year?",
		"My aunt in Lisbon invited us for the whole Easter weekend.",
		"The ferry across the river is free on holidays.",
	}, {
		"Aunt Beatriz is hiding chocolate bunnies in her orchard for the Easter hunt.",
		"Last year the twins found every single one in ten minutes.",
	}}},
	{"lagos-wedding", [][]string{{
		"Kemi lands in Lagos on the twelfth, I should call her before the flight.",
		"The wedding reception is at a hotel on Victoria Island.",
		"Remember to change some money into naira at the airport.",
	}}},
	{"lagos-holiday", [][]string{{
		"We found a cheap villa in Lagos on the Algarve for the second week of June.",
		"The cliffs at Ponta da Piedade are supposed to be stunning.",
		"We can rent kayaks and paddle into the grottoes.",
	}}},
	{"goose", [][]string{{
		"A goose chased the twins all the way across the park.",
		"It was guarding its nest near the pond, honking like mad.",
		"Next time we feed the ducks on the other side.",
	}}},
	{"plumber", [][]string{{
		"The kitchen sink is leaking again, there is water under the cabinet.",
		"I called the plumber, Mister Baptiste, he comes Wednesday morning.",
		"He thinks the trap under the sink is cracked.",
	}}},
	{"cello", [][]string{{
		"Noor's cello teacher wants her to practise scales twenty minutes a day.",
		"The recital is in the church hall on the last Sunday of the month.",
		"We need a new bow, the horsehair is fraying.",
	}}},
	{"tax", [][]string{{
		"The tax return is due at the end of the month.",
		"Our accountant Henrietta needs the receipts for the solar panels.",
		"We might get a rebate for the heat pump as well.",
	}}},
	{"vet", [][]string{{
		"Biscuit has been limping on her front paw since the walk.",
		"The vet, Doctor Lindqvist, wants to take an x-ray.",
		"She is not allowed on the sofa for two weeks.",
	}}},
	{"bumper", [][]string{{
		"Someone scraped our bumper in the supermarket car park and drove off.",
		"The insurance company wants photos and a claim number.",
		"The body shop quoted four hundred euros for the repair.",
	}}},
	{"anniversary", [][]string{{
		"Our tenth anniversary is on the ninth of July.",
		"I reserved a table at the Ivy, the one on the river.",
		"Don't tell her, it's a surprise.",
	}}},
	{"marathon", [][]string{{
		"I ran eighteen kilometres along the canal this morning.",
		"My left knee hurts on the downhill stretches.",
		"The Rotterdam marathon is in eleven weeks.",
	}, {
		"I signed up for the marathon pacing group at three hours forty.",
		"The physio taped my calf before the long run.",
	}}},
	{"birthday", [][]string{{
		"Zara's seventh birthday party is at the trampoline park.",
		"We need invitations for the whole class.",
		"She asked for a unicorn cake with rainbow sprinkles.",
	}}},
	{"interview", [][]string{{
		"The interview with Halvorsen Robotics is on Monday at ten.",
		"They want a take-home exercise about warehouse drones.",
		"The salary range is better than my current job.",
	}}},
	{"bees", [][]string{{
		"The beekeeper brought the hive to the bottom of the garden.",
		"We should harvest the honey in late August.",
		"Wear the veil, the bees were grumpy today.",
	}}},
	{"moving", [][]string{{
		"The removal van is booked for the twenty-first.",
		"We still have to pack the bookshelves and the piano.",
		"The new flat in Utrecht has a balcony facing west.",
	}}},
	{"grandma", [][]string{{
		"Grandma fell in the bathroom and is in Saint Mary's hospital.",
		"The nurse said the scan of her hip looked fine.",
		"Visiting hours end at eight in the evening.",
	}}},
	{"laptop", [][]string{{
		"I spilled tea on the laptop keyboard last night.",
		"The repair shop says the motherboard is fried.",
		"Luckily the thesis is backed up in the cloud.",
	}}},
	{"bookclub", [][]string{{
		"The book club is reading Middlemarch this month.",
		"Yusuf hasn't finished it, it's eight hundred pages.",
		"We meet at Oksana's flat on Thursday.",
	}}},
	{"camping", [][]string{{
		"We are camping by Loch Ness for three nights.",
		"Bring the gas stove and the midge repellent.",
		"The tent pole snapped last time, so I bought a spare.",
	}}},
	{"sourdough", [][]string{{
		"My sourdough starter finally doubled overnight.",
		"The loaf came out dense, maybe the oven wasn't hot enough.",
		"Next time I'll add more rye flour.",
	}}},
	{"parking", [][]string{{
		"I got a parking ticket outside the swimming pool.",
		"The sign said residents only after six.",
		"I'm going to appeal it, the meter was broken.",
	}}},
	{"school", [][]string{{
		"Mister Abernathy says Leo talks too much in maths class.",
		"Parents' evening is on the fourteenth.",
		"His reading has improved a lot since Christmas.",
	}}},
	{"chess", [][]string{{
		"Tariq won the regional chess tournament.",
		"He beat a grandmaster with the Sicilian defence.",
		"The final round lasted almost five hours.",
	}}},
	{"solar", [][]string{{
		"The installers mount the solar panels on Friday.",
		"The inverter goes in the garage next to the freezer.",
		"We should make enough electricity for the heat pump in summer.",
	}}},
	{"mobile", [][]string{{
		"Our mobile contract with Vodafone ends in March.",
		"The new plan has unlimited data for twenty euros.",
		"I have to ask for the PUK code before switching.",
	}}},
	{"tuner", [][]string{{
		"The piano tuner said the middle C string is rusty.",
		"Tuning it costs ninety euros.",
	}}},
	{"allergy", [][]string{{
		"Leo had an allergic reaction to peanuts at the party.",
		"We carry the EpiPen everywhere now.",
		"The allergist appointment is next Tuesday.",
	}}},
	{"knitting", [][]string{{
		"I'm knitting a mustard scarf for Grandpa Rolf.",
		"I ran out of merino wool halfway through.",
	}}},
	{"boiler", [][]string{{
		"The boiler makes a banging noise when the heating comes on.",
		"The engineer from Gasworks is coming on Friday.",
		"We had no hot water for two days.",
	}}},
}

// searchFiller is said between the planted lines: everyday words that are
// in no query.
var searchFiller = []string{
	"Good morning, how did you sleep?",
	"Not bad, the weather was quiet overnight.",
	"Hang on, let me put the kettle on first.",
	"Okay, I'm listening now.",
	"Sorry, say that again?",
	"Right, that sounds sensible.",
	"Hmm, I had completely forgotten.",
	"Let me write that down somewhere.",
	"Yes, exactly what I was thinking.",
	"Anyway, what else is on today?",
	"Fine by me.",
	"I'll see you later then.",
}

// Query kinds.
const (
	kindWord       = "word"
	kindName       = "name"
	kindPhrase     = "phrase"
	kindParaphrase = "paraphrase"
)

// searchQuery is one labelled query: want names conversations as "topic"
// (every conversation of the topic) or "topic/N" (its Nth, from 1).
type searchQuery struct {
	text, kind string
	want       []string
}

var searchQueries = []searchQuery{
	{"dentist", kindWord, []string{"dentist"}},
	{"goose", kindWord, []string{"goose"}},
	{"plumber", kindWord, []string{"plumber"}},
	{"cello", kindWord, []string{"cello"}},
	{"sourdough", kindWord, []string{"sourdough"}},
	{"honey", kindWord, []string{"bees"}},
	{"midge", kindWord, []string{"camping"}},
	{"trampoline", kindWord, []string{"birthday"}},
	{"EpiPen", kindWord, []string{"allergy"}},
	{"inverter", kindWord, []string{"solar"}},
	{"naira", kindWord, []string{"lagos-wedding"}},
	{"boiler", kindWord, []string{"boiler"}},
	{"merino", kindWord, []string{"knitting"}},
	{"motherboard", kindWord, []string{"laptop"}},
	{"bumper", kindWord, []string{"bumper"}},
	{"marathon", kindWord, []string{"marathon"}},
	{"Easter", kindWord, []string{"easter"}},
	{"anniversary", kindWord, []string{"anniversary"}},
	{"interview", kindWord, []string{"interview"}},
	{"tournament", kindWord, []string{"chess"}},
	{"parking", kindWord, []string{"parking"}},
	{"piano", kindWord, []string{"moving", "tuner"}},
	{"kayaks", kindWord, []string{"lagos-holiday"}},
	{"x-ray", kindWord, []string{"vet"}},

	{"Lagos", kindName, []string{"lagos-wedding", "lagos-holiday"}},
	{"Okafor", kindName, []string{"dentist/1"}},
	{"Kemi", kindName, []string{"lagos-wedding"}},
	{"Baptiste", kindName, []string{"plumber"}},
	{"Noor", kindName, []string{"cello"}},
	{"Henrietta", kindName, []string{"tax"}},
	{"Biscuit", kindName, []string{"vet"}},
	{"Lindqvist", kindName, []string{"vet"}},
	{"Zara", kindName, []string{"birthday"}},
	{"Halvorsen Robotics", kindName, []string{"interview"}},
	{"Utrecht", kindName, []string{"moving"}},
	{"Yusuf", kindName, []string{"bookclub"}},
	{"Oksana", kindName, []string{"bookclub"}},
	{"Tariq", kindName, []string{"chess"}},
	{"Abernathy", kindName, []string{"school"}},
	{"Leo", kindName, []string{"school", "allergy"}},
	{"Rolf", kindName, []string{"knitting"}},
	{"Mila", kindName, []string{"dentist/2"}},
	{"Rotterdam", kindName, []string{"marathon/1"}},
	{"Lisbon", kindName, []string{"easter/1"}},
	{"Loch Ness", kindName, []string{"camping"}},
	{"Saint Mary's hospital", kindName, []string{"grandma"}},
	{"Harbour Street", kindName, []string{"dentist/1"}},
	{"Vodafone", kindName, []string{"mobile"}},
	{"Middlemarch", kindName, []string{"bookclub"}},

	{"where are we going at Easter", kindPhrase, []string{"easter/1"}},
	{"the kitchen sink is leaking", kindPhrase, []string{"plumber"}},
	{"tooth fairy", kindPhrase, []string{"dentist/2"}},
	{"unicorn cake", kindPhrase, []string{"birthday"}},
	{"the tent pole snapped", kindPhrase, []string{"camping"}},
	{"spilled tea on the laptop", kindPhrase, []string{"laptop"}},
	{"residents only after six", kindPhrase, []string{"parking"}},
	{"banging noise", kindPhrase, []string{"boiler"}},
	{"Sicilian defence", kindPhrase, []string{"chess"}},
	{"solar panels", kindPhrase, []string{"tax", "solar"}},
	{"heat pump", kindPhrase, []string{"tax", "solar"}},
	{"no hot water", kindPhrase, []string{"boiler"}},
	{"middle C string", kindPhrase, []string{"tuner"}},
	{"chocolate bunnies in the orchard", kindPhrase, []string{"easter/2"}},

	{"when is the dental appointment", kindParaphrase, []string{"dentist/1"}},
	{"a leak under the sink", kindParaphrase, []string{"plumber"}},
	{"holiday villa on the Algarve", kindParaphrase, []string{"lagos-holiday"}},
	{"grandmother hurt her hip", kindParaphrase, []string{"grandma"}},
	{"knee pain when running", kindParaphrase, []string{"marathon/1"}},
	{"the bread did not rise", kindParaphrase, []string{"sourdough"}},
	{"appeal the parking fine", kindParaphrase, []string{"parking"}},
	{"bees in the garden", kindParaphrase, []string{"bees"}},
	{"surprise dinner for our anniversary", kindParaphrase, []string{"anniversary"}},
	{"peanut allergy", kindParaphrase, []string{"allergy"}},
	{"new job offer", kindParaphrase, []string{"interview"}},
	{"flat with a balcony", kindParaphrase, []string{"moving"}},
	{"the heating is broken", kindParaphrase, []string{"boiler"}},
	{"car insurance claim", kindParaphrase, []string{"bumper"}},
	{"switching phone plan", kindParaphrase, []string{"mobile"}},
	{"what did Leo's teacher say", kindParaphrase, []string{"school"}},
	{"the dog is limping", kindParaphrase, []string{"vet"}},
	{"broken computer", kindParaphrase, []string{"laptop"}},
}

// labelledConversation is one conversation of the set, named
// "topic/N".
type labelledConversation struct {
	name     string
	segments []segment
}

// searchCorpus returns the labelled conversations: each topic's lines in
// order, with a filler line before each (fixed by seed), as alternating
// speakers.
func searchCorpus(seed uint64) []labelledConversation {
	r := rand.New(rand.NewPCG(seed, 29))
	var out []labelledConversation
	for _, t := range searchTopics {
		for i, lines := range t.convs {
			var texts []string
			for _, l := range lines {
				texts = append(texts, searchFiller[r.IntN(len(searchFiller))], l)
			}
			texts = append(texts, searchFiller[r.IntN(len(searchFiller))])
			out = append(out, labelledConversation{name: fmt.Sprintf("%s/%d", t.key, i+1), segments: timed(texts)})
		}
	}
	return out
}

// timed gives texts alternating speakers and times, about 0.35 s a word.
func timed(texts []string) []segment {
	segs := make([]segment, len(texts))
	cs := 50
	for i, text := range texts {
		dur := 60 + 35*len(strings.Fields(text))
		segs[i] = segment{Text: text, Speaker: fmt.Sprintf("SPEAKER_0%d", i%2), IsUser: i%2 == 0,
			Start: float64(cs) / 100, End: float64(cs+dur) / 100}
		cs += dur + 40
	}
	return segs
}

// distractorTranscript is a generated transcript (genTranscript) with any
// segment that says a word of a word or name query replaced by filler, so
// that the labels stay complete however many distractors there are.
func distractorTranscript(r *rand.Rand, n int) []segment {
	segs := genTranscript(r, n)
	for i := range segs {
		if saysQueryWord(segs[i].Text) {
			segs[i].Text = searchFiller[r.IntN(len(searchFiller))]
		}
	}
	return segs
}

var queryWords = func() map[string]bool {
	m := map[string]bool{}
	for _, q := range searchQueries {
		if q.kind == kindWord || q.kind == kindName {
			for _, w := range words(q.text) {
				m[w] = true
			}
		}
	}
	return m
}()

func saysQueryWord(text string) bool {
	for _, w := range words(text) {
		if queryWords[w] {
			return true
		}
	}
	return false
}

// words are text's lower-case words (letters and digits; "Noor's" is
// "noor" and "s", as the index's tokenizer has it).
func words(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	})
}

// searchScore is the quality of a search on the labelled set.
type searchScore struct {
	queries   int
	precision float64  // mean over queries of relevant among the first 5 returned, over those returned (0 when none)
	strictP   float64  // mean of relevant among the first 5, over 5
	recall    float64  // mean of relevant among the first 5, over min(relevant, 5)
	mrr       float64  // mean of 1/rank of the first relevant among the first 5 (0 when none)
	misses    []string // queries that found too few of their conversations
	extra     []string // queries that found others among the first 5
}

// scoreSearch runs every query in qs through search (the conversation ids
// it returns, best first) and scores the first five against the labels;
// ids names each labelled conversation ("topic/N") by its id.
func scoreSearch(qs []searchQuery, ids map[string]string, search func(query string) ([]string, error)) (searchScore, error) {
	var s searchScore
	for _, q := range qs {
		want := map[string]bool{}
		for _, w := range q.want {
			for name, id := range ids {
				if name == w || strings.HasPrefix(name, w+"/") {
					want[id] = true
				}
			}
		}
		if len(want) == 0 {
			return s, fmt.Errorf("query %q: no conversation is labelled %v", q.text, q.want)
		}
		got, err := search(q.text)
		if err != nil {
			return s, fmt.Errorf("query %q: %w", q.text, err)
		}
		top := got[:min(5, len(got))]
		hits, first := 0, 0
		for i, id := range top {
			if want[id] {
				hits++
				if first == 0 {
					first = i + 1
				}
			}
		}
		s.queries++
		if len(top) > 0 {
			s.precision += float64(hits) / float64(len(top))
		}
		s.strictP += float64(hits) / 5
		s.recall += float64(hits) / float64(min(len(want), 5))
		if first > 0 {
			s.mrr += 1 / float64(first)
		}
		if hits < len(top) {
			s.extra = append(s.extra, fmt.Sprintf("%s %q: %d others", q.kind, q.text, len(top)-hits))
		}
		if hits < min(len(want), 5) {
			s.misses = append(s.misses, fmt.Sprintf("%s %q: %d of %d in the first 5", q.kind, q.text, hits, len(want)))
		}
	}
	if s.queries > 0 {
		n := float64(s.queries)
		s.precision, s.strictP, s.recall, s.mrr = s.precision/n, s.strictP/n, s.recall/n, s.mrr/n
	}
	return s, nil
}

// queriesOfKind are the queries of one kind ("" for all).
func queriesOfKind(kind string) []searchQuery {
	if kind == "" {
		return searchQueries
	}
	var out []searchQuery
	for _, q := range searchQueries {
		if q.kind == kind {
			out = append(out, q)
		}
	}
	return out
}

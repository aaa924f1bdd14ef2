package punctuate

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hearth-appliance/hearth/appliance/stt"
)

// batch builds words from text: each word lasts 0.3 s and follows the one
// before after 0.02 s; a "/" stands for a longer silence (0.32 s of gap)
// and "~" for a short one (0.15 s).
func batch(text string) []stt.Word {
	var ws []stt.Word
	t, gap := 0.5, 0.0
	for _, f := range strings.Fields(text) {
		switch f {
		case "/":
			gap = 0.32
			continue
		case "~":
			gap = 0.15
			continue
		}
		t += gap
		ws = append(ws, stt.Word{Text: f, Start: t, End: t + 0.3, Speaker: 2})
		t += 0.3
		gap = 0.02
	}
	return ws
}

func text(ws []stt.Word) string {
	var b strings.Builder
	for i, w := range ws {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w.Text)
	}
	return b.String()
}

func TestPunctuate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want string
	}{
		{"one statement", "good morning maria", "Good morning maria."},
		{"a pause ends a sentence", "good morning maria / how are you", "Good morning maria. How are you?"},
		{"a short pause does not", "good morning maria ~ how are you", "Good morning maria how are you."},
		{"hesitation after a function word", "can you send it to the / team", "Can you send it to the team?"},
		{"hesitation after and", "milk and / eggs", "Milk and eggs."},
		{"to can end a sentence", "i'd love to / see you then", "I'd love to. See you then."},
		{"hesitation after i'm", "i'm / not sure", "I'm not sure."},
		{"a breath before a phrase it goes on with", "please send a report / to my manager tomorrow morning",
			"Please send a report to my manager tomorrow morning."},
		{"the end of the month", "it's due at the end / of the month", "It's due at the end of the month."},
		{"to as a new sentence's verb", "thanks / to be honest it was fine", "Thanks. To be honest it was fine."},
		{"i everywhere", "yesterday i said i'm tired and i'll rest i've been busy i'd say",
			"Yesterday I said I'm tired and I'll rest I've been busy I'd say."},
		{"typographic apostrophe", "i’m here / can’t you hear", "I’m here. Can’t you hear?"},
		{"words that start with i stay", "it is in italy", "It is in italy."},

		{"wh question", "what time does the train leave", "What time does the train leave?"},
		{"wh with measure", "how many people are coming", "How many people are coming?"},
		{"how long", "how long will it take", "How long will it take?"},
		{"how about", "how about friday at two", "How about friday at two?"},
		{"what about", "what about the budget", "What about the budget?"},
		{"why not", "why not", "Why not?"},
		{"how come", "how come it broke", "How come it broke?"},
		{"bare wh", "why", "Why?"},
		{"wh contraction", "what's the plan", "What's the plan?"},
		{"who asks before a verb", "who wants coffee", "Who wants coffee?"},
		{"where is", "where is the charger", "Where is the charger?"},
		{"subordinate when", "when i get home i'll call you", "When I get home I'll call you."},
		{"subordinate where", "where the car is parked nobody knows", "Where the car is parked nobody knows."},
		{"subordinate what", "what you need is sleep", "What you need is sleep."},
		{"exclamative what a", "what a day", "What a day."},
		{"exclamative how", "how nice that is", "How nice that is."},
		{"what to do", "what to do next is up to you", "What to do next is up to you."},

		{"be question", "is it raining", "Is it raining?"},
		{"be with determiner", "was the meeting moved", "Was the meeting moved?"},
		{"be elliptical", "was a good day", "Was a good day."},
		{"modal question", "can you send them the budget report", "Can you send them the budget report?"},
		{"modal with determiner", "will the plumber come", "Will the plumber come?"},
		{"negative modal", "won't you stay", "Won't you stay?"},
		{"could be", "could be worse", "Could be worse."},
		{"can't wait", "can't wait to see you", "Can't wait to see you."},
		{"might", "might rain later", "Might rain later."},
		{"do question", "do you have a minute", "Do you have a minute?"},
		{"do imperative", "do the dishes tonight", "Do the dishes tonight."},
		{"don't imperative", "don't forget the milk", "Don't forget the milk."},
		{"don't question", "don't you think so", "Don't you think so?"},
		{"does with determiner", "does the train stop here", "Does the train stop here?"},
		{"didn't elliptical", "didn't know that", "Didn't know that."},
		{"have question", "have you seen my keys", "Have you seen my keys?"},
		{"have imperative", "have a good weekend", "Have a good weekend."},
		{"had elliptical", "had a great time", "Had a great time."},
		{"has question", "has anyone called", "Has anyone called?"},
		{"discourse before a question", "so can you send it", "So can you send it?"},
		{"okay then wh", "okay what now", "Okay what now?"},
		{"please could you", "please could you close the door", "Please could you close the door?"},
		{"please imperative", "please remind the team", "Please remind the team."},
		{"statement with you", "you can send it tomorrow", "You can send it tomorrow."},

		{"seven sentences in one batch",
			"hi maria thanks for joining the call this morning / i looked at the numbers yesterday / " +
				"can you send them the budget report by friday at two / please remind the team about the offsite / " +
				"what time does the train leave / i will call the plumber tomorrow / thanks bye",
			"Hi maria thanks for joining the call this morning. I looked at the numbers yesterday. " +
				"Can you send them the budget report by friday at two? Please remind the team about the offsite. " +
				"What time does the train leave? I will call the plumber tomorrow. Thanks bye."},
		{"digits", "call me at 5 / 6 is fine", "Call me at 5. 6 is fine."},
		{"non-ascii first letter", "élodie called", "Élodie called."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			in := batch(tt.in)
			orig := append([]stt.Word(nil), in...)
			got := Punctuate(in)
			if g := text(got); g != tt.want {
				t.Errorf("Punctuate(%q)\n got %q\nwant %q", tt.in, g, tt.want)
			}
			if d := cmp.Diff(orig, in); d != "" {
				t.Errorf("input modified (-before +after):\n%s", d)
			}
			checkTimings(t, in, got)
		})
	}
}

// checkTimings: the same words, in order, with their timings and speakers.
func checkTimings(t *testing.T, in, got []stt.Word) {
	t.Helper()
	var kept []stt.Word
	for _, w := range in {
		if strings.TrimSpace(w.Text) != "" {
			kept = append(kept, w)
		}
	}
	if len(kept) != len(got) {
		t.Fatalf("%d words in, %d out", len(kept), len(got))
	}
	for i := range got {
		if got[i].Start != kept[i].Start || got[i].End != kept[i].End || got[i].Speaker != kept[i].Speaker {
			t.Errorf("word %d: %+v, was %+v", i, got[i], kept[i])
		}
	}
}

func TestPunctuateLeavesFormattedBatches(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		"Good morning maria",
		"good morning, maria",
		"how are you?",
		"see you at 3:30",
		"call Anna tomorrow",
		"ok … fine",
		"well ¿qué tal",
		"it's the (blue) one",
	} {
		ws := batch(in)
		ws = append(ws, stt.Word{Text: "  ", Start: 9, End: 9})
		got := Punctuate(ws)
		if len(got) != len(ws) || &got[0] != &ws[0] {
			t.Errorf("Punctuate(%q) = %q, want the batch as it is", in, text(got))
		}
	}
}

func TestPunctuateDropsBlankWords(t *testing.T) {
	t.Parallel()
	in := []stt.Word{
		{Text: "", Start: 0.1, End: 0.1},
		{Text: " send ", Start: 0.2, End: 0.5},
		{Text: "\t", Start: 0.5, End: 0.6},
		{Text: "it", Start: 0.6, End: 0.8},
		{Text: "   ", Start: 0.9, End: 1.0},
	}
	got := Punctuate(in)
	want := []stt.Word{{Text: "Send", Start: 0.2, End: 0.5}, {Text: "it.", Start: 0.6, End: 0.8}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	for _, in := range [][]stt.Word{nil, {}, {{Text: " "}, {Text: ""}}} {
		if got := Punctuate(in); len(got) != 0 {
			t.Errorf("Punctuate(%+v) = %+v, want no words", in, got)
		}
	}
}

func TestPunctuateIsIdempotent(t *testing.T) {
	t.Parallel()
	in := batch("so what do you think / i think we should go ~ now")
	once := Punctuate(in)
	if d := cmp.Diff(once, Punctuate(once)); d != "" {
		t.Errorf("second pass changed the words (-once +twice):\n%s", d)
	}
}

func TestPunctuateThreshold(t *testing.T) {
	t.Parallel()
	// Timings in hundredths, as PocketSphinx gives them: a gap of exactly
	// SentencePause splits despite float error; a hundredth less does not.
	for _, tt := range []struct {
		end, next float64
		want      string
	}{
		{8.39, 8.64, "Okay. Thanks."},
		{8.39, 8.63, "Okay thanks."},
	} {
		got := Punctuate([]stt.Word{{Text: "okay", Start: 8.0, End: tt.end}, {Text: "thanks", Start: tt.next, End: 9.0}})
		if g := text(got); g != tt.want {
			t.Errorf("gap %.2f: %q, want %q", tt.next-tt.end, g, tt.want)
		}
	}
}

func BenchmarkPunctuate(b *testing.B) {
	in := batch("hi maria thanks for joining the call this morning / can you send them the budget report by friday at two / please remind the team about the offsite")
	b.ReportAllocs()
	for b.Loop() {
		Punctuate(in)
	}
}

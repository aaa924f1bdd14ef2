package builtin

import (
	"context"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/hearth-appliance/hearth/appliance"
)

func structure(t *testing.T, in appliance.TranscriptInput) appliance.Structured {
	t.Helper()
	s, err := New().Structure(context.Background(), in)
	if err != nil {
		t.Fatalf("Structure: %v", err)
	}
	return s
}

// words lowercases text and splits it into words without punctuation.
func words(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\''
	})
}

func checkTitleCase(t *testing.T, title string) {
	t.Helper()
	ws := strings.Fields(title)
	for i, w := range ws {
		r, _ := utf8.DecodeRuneInString(w)
		small := inSet(smallWords, strings.ToLower(w))
		switch {
		case i > 0 && i < len(ws)-1 && small:
			if w != strings.ToLower(w) {
				t.Errorf("title %q: small word %q should be lowercase", title, w)
			}
		case unicode.IsLower(r):
			t.Errorf("title %q: word %q is not capitalised", title, w)
		}
	}
}

func TestBuiltinTitle(t *testing.T) {
	t.Parallel()
	for _, s := range samples {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			got := structure(t, s.input()).Title
			if got == "" {
				t.Fatal("empty title")
			}
			tw := words(got)
			if n := len(strings.Fields(got)); n > maxTitleWords {
				t.Errorf("title %q has %d words, want ≤ %d", got, n, maxTitleWords)
			}
			checkTitleCase(t, got)
			transcript := words(strings.Join(s.segments, " "))
			if len(transcript) >= len(tw) && cmp.Equal(transcript[:len(tw)], tw) {
				t.Errorf("title %q just repeats the first %d words of the transcript", got, len(tw))
			}
			for _, bad := range []string{"untitled", "conversation"} {
				if strings.Contains(strings.ToLower(got), bad) {
					t.Errorf("title %q is placeholder text", got)
				}
			}
			salient := false
			for _, k := range s.keywords {
				for _, w := range tw {
					if w == k || strings.TrimSuffix(w, "s") == strings.TrimSuffix(k, "s") {
						salient = true
					}
				}
			}
			if !salient {
				t.Errorf("title %q names none of the salient keywords %q", got, s.keywords)
			}
		})
	}
}

func TestBuiltinOverview(t *testing.T) {
	t.Parallel()
	for _, s := range samples {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			got := structure(t, s.input()).Overview
			if got == "" {
				t.Fatal("empty overview")
			}
			if n := utf8.RuneCountInString(got); n > maxOverviewRunes {
				t.Errorf("overview has %d runes, want ≤ %d", n, maxOverviewRunes)
			}
			first, _ := utf8.DecodeRuneInString(got)
			if unicode.IsLower(first) {
				t.Errorf("overview %q does not start with a capital", got)
			}
			if !strings.ContainsAny(got[len(got)-1:], ".!?") {
				t.Errorf("overview %q does not end with punctuation", got)
			}
			// extractive: every word comes from the transcript
			vocab := map[string]bool{}
			for _, w := range words(strings.Join(s.segments, " ")) {
				vocab[w] = true
			}
			for _, w := range words(got) {
				if !vocab[w] {
					t.Errorf("overview word %q is not in the transcript", w)
				}
			}
			// at most three sentences, and fewer than the whole transcript
			if n := strings.Count(got, ". ") + strings.Count(got, "? ") + 1; n > 3 {
				t.Errorf("overview has %d sentences, want ≤ 3: %q", n, got)
			}
		})
	}
}

func TestBuiltinOverviewPicksSalientSentences(t *testing.T) {
	t.Parallel()
	in := appliance.TranscriptInput{Segments: segments(
		"Hey, how are you doing, did you sleep okay?",
		"Yeah fine, the coffee machine is making that noise again.",
		"Anyway, the quarterly budget review is on Monday and the budget for marketing is too high.",
		"We should move part of the marketing budget to hiring before the review.",
		"Sure, sounds good, want some more coffee?",
		"No thanks, I'm good.",
		"Cool, talk later.",
	)}
	got := structure(t, in).Overview
	if !strings.Contains(got, "budget review") || !strings.Contains(got, "marketing budget") {
		t.Errorf("overview %q misses the budget sentences", got)
	}
	if strings.Contains(got, "sleep") || strings.Contains(got, "talk later") {
		t.Errorf("overview %q includes small talk", got)
	}
	if strings.Index(got, "quarterly") > strings.Index(got, "hiring") {
		t.Errorf("overview %q is not in spoken order", got)
	}
}

func TestBuiltinCategory(t *testing.T) {
	t.Parallel()
	for _, s := range samples {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			got := structure(t, s.input())
			ok := false
			for _, c := range s.categories {
				ok = ok || got.Category == c
			}
			if !ok {
				t.Errorf("category = %q, want one of %q", got.Category, s.categories)
			}
			if want := emojis[got.Category]; got.Emoji != want {
				t.Errorf("emoji = %q, want %q for %q", got.Emoji, want, got.Category)
			}
		})
	}
}

func TestBuiltinStructureLists(t *testing.T) {
	t.Parallel()
	for _, text := range []string{"", "okay", samples[0].segments[0]} {
		got := structure(t, appliance.TranscriptInput{Segments: segments(text)})
		if got.ActionItems == nil || len(got.ActionItems) != 0 || got.Events == nil || len(got.Events) != 0 {
			t.Errorf("%q: action items %v, events %v; want empty non-nil", text, got.ActionItems, got.Events)
		}
		if got.Emoji == "" {
			t.Errorf("%q: empty emoji", text)
		}
	}
}

func TestBuiltinNoContent(t *testing.T) {
	t.Parallel()
	for _, text := range []string{"", "   ", "okay", "um, uh, hmm yeah", "...!?", "嗯嗯，好的"} {
		got := structure(t, appliance.TranscriptInput{Segments: segments(text)})
		if got.Title != "" || got.Overview != "" || got.Category != appliance.CategoryOther {
			t.Errorf("%q: got %+v, want empty title and overview, category other", text, got)
		}
	}
}

func TestBuiltinTitleForAnyContentWord(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"Groceries":                 "Groceries",
		"groceries":                 "Groceries",
		"2024":                      "2024",
		"twenty":                    "Twenty",
		strings.Repeat("x", 100):    "X" + strings.Repeat("x", maxKeywordLen-1),
		"um, the whole thing, yeah": "Whole",
		"猫":                         "猫",
		"conversation":              "", // a placeholder is no title
	}
	for text, want := range tests {
		got := structure(t, appliance.TranscriptInput{Segments: segments(text)})
		if got.Title != want {
			t.Errorf("title(%.20q) = %q, want %q", text, got.Title, want)
		}
		if got.Title != "" && got.Overview == "" {
			t.Errorf("title(%.20q) = %q with an empty overview", text, got.Title)
		}
	}
}

func TestBuiltinDeterministic(t *testing.T) {
	t.Parallel()
	for _, s := range samples {
		a, b := structure(t, s.input()), structure(t, s.input())
		if d := cmp.Diff(a, b); d != "" {
			t.Errorf("%s: two runs differ (-first +second):\n%s", s.name, d)
		}
	}
}

func TestBuiltinTitleKeepsAcronymsAndSmallWords(t *testing.T) {
	t.Parallel()
	got := structure(t, appliance.TranscriptInput{Segments: segments(
		"Honestly I think the API gateway keeps timing out under load.",
		"We moved the API gateway to a bigger node but the API gateway still drops requests.",
		"Let's check the load balancer logs and the load balancer config tomorrow.",
	)}).Title
	if !strings.Contains(got, "API Gateway") || !strings.Contains(got, " and ") {
		t.Errorf("title = %q, want the acronym API kept and a lowercase 'and'", got)
	}
}

func TestBuiltinNonEnglish(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   appliance.TranscriptInput
		want string // a word the title should hold
	}{
		{"chinese", appliance.TranscriptInput{Language: "zh", Segments: segments(
			"我们明天要开会讨论项目预算。", "项目预算需要增加，市场部的费用太高了。", "嗯，好的，我下周把新的预算表发给你。")}, "预算"},
		{"chinese untagged", appliance.TranscriptInput{Segments: segments(
			"我们明天要开会讨论项目预算。项目预算需要增加。")}, "预算"},
		{"japanese", appliance.TranscriptInput{Language: "ja", Segments: segments(
			"明日の会議で新しいプロジェクトの予算について話しましょう。", "プロジェクトの締め切りは金曜日です。")}, "プロジェクト"},
		{"spanish", appliance.TranscriptInput{Language: "es", Segments: segments(
			"Mañana tenemos la reunión con el equipo de ventas para revisar el presupuesto del próximo trimestre.",
			"El presupuesto de marketing subió mucho.",
			"Necesitamos reducir gastos y contratar dos personas.")}, "Presupuesto"},
		{"spanish untagged", appliance.TranscriptInput{Segments: segments(
			"Mañana tenemos la reunión con el equipo de ventas para revisar el presupuesto del próximo trimestre.",
			"El presupuesto de marketing subió mucho y no sé qué vamos a hacer con los gastos.")}, "Presupuesto"},
		{"korean", appliance.TranscriptInput{Language: "ko", Segments: segments(
			"내일 회의에서 프로젝트 예산을 논의합시다. 예산이 부족합니다.")}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := structure(t, tt.in)
			if got.Title == "" || got.Overview == "" {
				t.Fatalf("got title %q overview %q, want both non-empty", got.Title, got.Overview)
			}
			if !strings.Contains(got.Title, tt.want) {
				t.Errorf("title = %q, want it to contain %q", got.Title, tt.want)
			}
			if WordCount(got.Title) > maxTitleWords || len(strings.Fields(got.Title)) > maxTitleWords {
				t.Errorf("title %q is longer than %d words", got.Title, maxTitleWords)
			}
			if got.Category != appliance.CategoryOther {
				t.Errorf("category = %q, want other outside English", got.Category)
			}
		})
	}
}

func TestBuiltinShouldDiscard(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("We talked through the garden layout and where the tomatoes should go this spring. ", 10)
	tests := []struct {
		name string
		text []string
		lang string
		want bool
	}{
		{"okay", []string{"okay"}, "", true},
		{"hmm yeah", []string{"hmm yeah"}, "", true},
		{"thanks bye", []string{"Thanks, bye!"}, "", true},
		{"siri one-liner", []string{"Hey Siri, what time is it?"}, "", true},
		{"alexa weather", []string{"Alexa what's the weather like tomorrow"}, "", true},
		{"empty", []string{""}, "", true},
		{"no segments", nil, "", true},
		{"fragment", []string{"nice weather today huh"}, "", true},
		{"greeting", []string{"Hi there, good morning, how are you?"}, "", true},
		{"elongated fillers", []string{"hmmmm uhhh ahhh hahaha"}, "", true},
		{"dentist task", []string{"I need to call the dentist tomorrow about my appointment"}, "", false},
		{"remind me via siri", []string{"Hey Siri remind me to buy milk"}, "", false},
		{"plan with time", []string{"Lunch with Dana on Thursday"}, "", false},
		{"personal fact", []string{"my sister is allergic to peanuts"}, "", false},
		{"question", []string{"Which contractor quoted the lowest price for the roof repair?"}, "", false},
		{"long chat", []string{long}, "", false},
		{"sample", samples[0].segments, "", false},
		{"chinese content", []string{"明天开会讨论预算"}, "zh", false},
		{"chinese backchannel", []string{"嗯嗯，好的"}, "zh", true},
		{"spanish content", []string{"Mañana tengo cita con el médico a las diez"}, "es", false},
		{"spanish greeting", []string{"hola, gracias"}, "es", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			in := appliance.TranscriptInput{Segments: segments(tt.text...), Language: tt.lang}
			got, err := New().ShouldDiscard(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("ShouldDiscard(%q) = %v, want %v", tt.text, got, tt.want)
			}
		})
	}
}

func TestBuiltinCanceledContext(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	b := New()
	if _, err := b.Structure(ctx, samples[0].input()); err == nil {
		t.Error("Structure with a canceled context: want error")
	}
	if _, err := b.ShouldDiscard(ctx, samples[0].input()); err == nil {
		t.Error("ShouldDiscard with a canceled context: want error")
	}
	if b.Name() != "builtin" {
		t.Errorf("Name() = %q", b.Name())
	}
}

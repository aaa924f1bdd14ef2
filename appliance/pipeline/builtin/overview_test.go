package builtin

import (
	"strings"
	"testing"
	"time"
)

// Each sentence of an overview starts at a sentence boundary, with a
// capital, even after a dropped greeting and with a name inside it;
// statements are preferred to questions; a title names a topic, not a date.
func TestOverviewSentencesAndTitleTopics(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 11, 20, 19, 30, 0, 0, time.UTC)
	tests := []struct {
		name           string
		turns          []turn
		overviewHas    []string
		overviewHasNot []string
		titleHasNot    []string
		titleHasOneOf  []string
	}{
		{"a name inside a sentence whose filler was dropped",
			[]turn{{"1", "So are we doing Thanksgiving at your mom's this year?"}, {"U", "Yes, she wants everyone there by two."},
				{"1", "And the turkey is from the Hendersons' farm again."}},
			[]string{"Are we doing Thanksgiving", "The turkey is from"}, []string{"are we doing", "And the turkey"}, nil, nil},
		{"greetings are dropped",
			[]turn{{"1", "hi we can send a plumber tomorrow between one and three"}, {"U", "great tomorrow works i work from home"}},
			nil, []string{"Hi we", "hi we", "Great tomorrow", "great tomorrow"}, nil, nil},
		{"statements before questions",
			[]turn{{"1", "How's your knee since the physio session last week?"}, {"U", "The knee is better on the stairs but it aches after running."},
				{"1", "Then hold off running for two more weeks and do the knee exercises every morning."},
				{"U", "Okay, I will do the knee exercises."}, {"1", "Any pain in the knee at night?"}, {"U", "No."}},
			[]string{"The knee is better", "hold off running"}, []string{"How's your knee"}, nil, nil},
		{"an unpunctuated question keeps its mark",
			[]turn{{"1", "can you book the campus tour at northwestern for the twenty first"}, {"U", "sure"}},
			[]string{"Can you book the campus tour at northwestern for the twenty first?"}, nil, nil, nil},
		{"an act is no topic",
			[]turn{{"1", "So postgres or mongo for the new billing service?"}, {"U", "Postgres, we need transactions across orders and payments."},
				{"1", "Fine, postgres it is. Can you write the decision record?"}, {"U", "Yes, I'll write it and circulate it by Monday."}},
			nil, nil, []string{"Write"}, []string{"Postgres"}},
		{"a date is no topic",
			[]turn{{"1", "The rental car is ready on December nineteenth at the airport."}, {"U", "Great, December nineteenth works, I'll collect the rental car at the airport."}},
			nil, nil, []string{"December", "Nineteenth"}, []string{"Rental Car", "Airport"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := structure(t, dialogueInput(start, tt.turns...))
			for _, w := range tt.overviewHas {
				if !strings.Contains(s.Overview, w) {
					t.Errorf("overview %q lacks %q", s.Overview, w)
				}
			}
			for _, w := range tt.overviewHasNot {
				if strings.Contains(s.Overview, w) {
					t.Errorf("overview %q has %q", s.Overview, w)
				}
			}
			for _, w := range tt.titleHasNot {
				if strings.Contains(s.Title, w) {
					t.Errorf("title %q has %q", s.Title, w)
				}
			}
			if len(tt.titleHasOneOf) > 0 && !containsAny(s.Title, tt.titleHasOneOf) {
				t.Errorf("title %q has none of %q", s.Title, tt.titleHasOneOf)
			}
		})
	}
}

func containsAny(s string, subs []string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

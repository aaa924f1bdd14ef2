package builtin

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestDueConventions pins the due a careful labeller writes for each kind
// of time said with a task (the package doc's contract), each sentence
// written and as a live recognizer gives it (lowercase, no punctuation).
// The start is Tuesday 10 March 2026, 10:00; a bare date is due at 23:59.
func TestDueConventions(t *testing.T) {
	t.Parallel()
	ny := mustZone(t, "America/New_York")
	tue := time.Date(2026, 3, 10, 10, 0, 0, 0, ny)
	tests := []struct {
		kind  string
		turns []turn
		want  []item
		// writtenOnly: the live form runs the two sentences into one
		// clause, a boundary this table does not pin
		writtenOnly bool
	}{
		{"by a weekday: that day", []turn{{"U", "I need to send the deck by Friday."}}, []item{{"Send the deck", "2026-03-13 23:59"}}, false},
		{"before a weekday: the day before", []turn{{"U", "I need to send the deck before Friday."}}, []item{{"Send the deck", "2026-03-12 23:59"}}, false},
		{"no later than a date: that date", []turn{{"U", "I need to send the deck no later than the 20th."}}, []item{{"Send the deck", "2026-03-20 23:59"}}, false},
		{"before a day and an hour: that instant", []turn{{"U", "I need to send the deck before Friday noon."}}, []item{{"Send the deck", "2026-03-13 12:00"}}, false},
		{"end of day: 17:00 today", []turn{{"U", "I need to send the deck by end of day."}}, []item{{"Send the deck", "2026-03-10 17:00"}}, false},
		{"end of play is end of day", []turn{{"U", "I'll send the deck by end of play."}}, []item{{"Send the deck", "2026-03-10 17:00"}}, false},
		{"tonight: 18:00 today", []turn{{"U", "I'll send the deck tonight."}}, []item{{"Send the deck", "2026-03-10 18:00"}}, false},
		{"before lunch: noon today", []turn{{"U", "I'll send the deck before lunch."}}, []item{{"Send the deck", "2026-03-10 12:00"}}, false},
		{"this week: its Friday", []turn{{"U", "I'll send the deck this week."}}, []item{{"Send the deck", "2026-03-13 23:59"}}, false},
		{"within the week: its Friday", []turn{{"U", "I'll send the deck within the week."}}, []item{{"Send the deck", "2026-03-13 23:59"}}, false},
		{"next week: its Friday", []turn{{"U", "I'll send the deck next week."}}, []item{{"Send the deck", "2026-03-20 23:59"}}, false},
		{"early next week: its Monday", []turn{{"U", "I'll send the deck early next week."}}, []item{{"Send the deck", "2026-03-16 23:59"}}, false},
		{"mid next week: its Wednesday", []turn{{"U", "I'll send the deck mid next week."}}, []item{{"Send the deck", "2026-03-18 23:59"}}, false},
		{"end of the month: its last day", []turn{{"U", "I'll send the deck by the end of the month."}}, []item{{"Send the deck", "2026-03-31 23:59"}}, false},
		{"a weekday already past this week: next week's", []turn{{"U", "I'll send the deck on Monday."}}, []item{{"Send the deck", "2026-03-16 23:59"}}, false},
		{"today's weekday: a week ahead", []turn{{"U", "I'll send the deck on Tuesday."}}, []item{{"Send the deck", "2026-03-17 23:59"}}, false},
		{"no time said: none", []turn{{"U", "I'll send the deck."}}, []item{{"Send the deck", ""}}, false},
		{"a day said first scopes its sentence", []turn{{"U", "On Friday I need to call the bank and pick up the dry cleaning."}},
			[]item{{"Call the bank", "2026-03-13 23:59"}, {"Pick up the dry cleaning", "2026-03-13 23:59"}}, false},
		{"a day said first scopes each commitment of its sentence", []turn{{"U", "Tomorrow I'll call the bank, and I'll also pick up the dry cleaning."}},
			[]item{{"Call the bank", "2026-03-11 23:59"}, {"Pick up the dry cleaning", "2026-03-11 23:59"}}, false},
		{"a deadline said last for deeds under one subject", []turn{{"U", "I need to call the bank and pick up the dry cleaning by Friday."}},
			[]item{{"Call the bank", "2026-03-13 23:59"}, {"Pick up the dry cleaning", "2026-03-13 23:59"}}, false},
		{"each deed its own time", []turn{{"U", "i'll call the bank tomorrow and book the flights on friday"}},
			[]item{{"Call the bank", "2026-03-11 23:59"}, {"Book the flights", "2026-03-13 23:59"}}, false},
		{"an answer that is only a time", []turn{{"1", "Can you send me the report?"}, {"U", "Sure, by Thursday."}},
			[]item{{"Send Speaker 1 the report", "2026-03-12 23:59"}}, false},
		{"an answer that is only a time, the time first", []turn{{"1", "Could you call the landlord about the heating?"}, {"U", "Tomorrow, yes."}},
			[]item{{"Call the landlord about the heating", "2026-03-11 23:59"}}, false},
		{"an answer with no time lends none", []turn{{"1", "Could you call the landlord about the heating?"}, {"U", "Sure, no problem."}},
			[]item{{"Call the landlord about the heating", ""}}, false},
		{"a time said in the sentence before, by the other speaker", []turn{{"1", "The forms are due on Friday."}, {"U", "Okay, I'll fill in the forms."}},
			[]item{{"Fill in the forms", "2026-03-13 23:59"}}, false},
		{"a time said first after a connective opens its own clause", []turn{{"U", "Okay so by Thursday I'll have the slides done and then Friday I'll send the invites."}},
			[]item{{"Have the slides", "2026-03-12 23:59"}, {"Send the invites", "2026-03-13 23:59"}}, false},
		{"at the latest is no part of the deed", []turn{{"U", "I'll confirm the booking by Wednesday at the latest."}},
			[]item{{"Confirm the booking", "2026-03-11 23:59"}}, false},
		{"a time asked for after the task and agreed", []turn{{"U", "I'll send you the report."}, {"1", "Great, by Friday?"}, {"U", "Yes."}},
			[]item{{"Send Speaker 1 the report", "2026-03-13 23:59"}}, false},
		{"a time given by the one who asked", []turn{{"1", "Can you pick up the kids?"}, {"U", "Sure, what time?"}, {"1", "At five fifteen."}, {"U", "Okay."}},
			[]item{{"Pick up the kids", "2026-03-10 17:15"}}, false},
		{"a time said alone after the talk moved on is not the task's", []turn{{"U", "I'll send you the report."}, {"1", "The venue is booked for the 20th at noon."}, {"1", "Thursday."}},
			[]item{{"Send Speaker 1 the report", ""}}, false},
		{"a day said first, then an ordering word", []turn{{"U", "So tomorrow, first I'll drop the car off, then I'll pick up the dry cleaning."}},
			[]item{{"Drop the car off", "2026-03-11 23:59"}, {"Pick up the dry cleaning", "2026-03-11 23:59"}}, false},
		{"a weekday's deadline said first is the next task's, no task of its own", []turn{{"U", "Friday's the deadline for the grant. I need to finish the budget section."}},
			[]item{{"Finish the budget section", "2026-03-13 23:59"}}, false},
		{"when the thing asked for is needed", []turn{{"1", "Can you return the form? We need it back by the end of the week."}, {"U", "Sure."}},
			[]item{{"Return the form", "2026-03-13 23:59"}}, false},
		{"a weekday after next", []turn{{"U", "I'll call the insurance company the Monday after next."}},
			[]item{{"Call the insurance company", "2026-03-23 23:59"}}, false},
		{"a reminder with its time said first", []turn{{"U", "On Sunday evening remind me to put the bins out."}},
			[]item{{"Put the bins out", "2026-03-15 18:00"}}, false},
		{"a before clause with an hour is the deadline", []turn{{"U", "I need to call the council about the bins before they close at five."}},
			[]item{{"Call the council about the bins", "2026-03-10 17:00"}}, false},
		{"a before clause with a date ends the day before", []turn{{"U", "I'll renew the parking permit before it expires on the 31st."}},
			[]item{{"Renew the parking permit", "2026-03-30 23:59"}}, false},
		{"at the very latest is no part of the deed", []turn{{"U", "I'll send the cheque by the end of next week at the very latest."}},
			[]item{{"Send the cheque", "2026-03-20 23:59"}}, false},
		{"ready for the time just said", []turn{{"1", "We'll regroup next Tuesday."}, {"U", "Okay, I'll have the numbers ready for that."}},
			[]item{{"Have the numbers ready", "2026-03-17 23:59"}}, false},
		{"a deadline said after the task, of what was just said", []turn{{"U", "I need to renew my passport."}, {"U", "It has to be done by the end of the month."}},
			[]item{{"Renew my passport", "2026-03-31 23:59"}}, false},
		{"the deadline said after the task is no task", []turn{{"U", "I need to renew my passport. The deadline is Friday."}},
			[]item{{"Renew my passport", "2026-03-13 23:59"}}, true},
		{"a deadline said after the task, its subject a pronoun", []turn{{"U", "I'll send the invoice to Acme. That needs to be in by Thursday."}},
			[]item{{"Send the invoice to Acme", "2026-03-12 23:59"}}, true},
	}
	for _, tt := range tests {
		for _, live := range []bool{false, true} {
			if live && tt.writtenOnly {
				continue
			}
			turns := append([]turn(nil), tt.turns...)
			name := tt.kind
			if live {
				name += ", live"
				for i := range turns {
					turns[i].text = liveForm(turns[i].text)
				}
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				got := items(structure(t, dialogueInput(tue, turns...)), ny)
				// descriptions compared lowercase: a live form names "sam", not "Sam"
				want := make([]item, len(tt.want))
				for i, it := range tt.want {
					want[i] = item{strings.ToLower(it.Desc), it.Due}
				}
				for i := range got {
					got[i].Desc = strings.ToLower(got[i].Desc)
				}
				if d := cmp.Diff(want, got); d != "" {
					t.Errorf("%v (-want +got):\n%s", turns, d)
				}
			})
		}
	}
}

// liveForm is s lowercase without punctuation, as a live recognizer writes it.
func liveForm(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '.', ',', '?', '!':
			return -1
		}
		return r
	}, strings.ToLower(s))
}

package builtin

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestBuiltinSettledSlots: plans whose time is said apart from their name,
// across a clause, a question or a turn.
func TestBuiltinSettledSlots(t *testing.T) {
	t.Parallel()
	berlin := mustZone(t, "Europe/Berlin")
	thu := time.Date(2026, 3, 26, 13, 0, 0, 0, berlin)
	tests := []struct {
		name  string
		turns []turn
		want  []plan
	}{
		{"an opening taken", []turn{{"1", "The next opening is April 2nd at 10:15."}, {"U", "I'll take it."}},
			[]plan{{"Appointment", "2026-04-02 10:15", 30}}},
		{"same time as now", []turn{{"1", "Let's talk again on April 7th, same time."}, {"U", "Perfect."}},
			[]plan{{"Call", "2026-04-07 13:00", 30}}},
		{"time after a question", []turn{{"1", "The stock count is on Monday."}, {"U", "Do you need me there?"}, {"1", "Yes, from eight till twelve."}},
			[]plan{{"Stock Count", "2026-03-30 08:00", 180}}},
		{"time in the next sentence", []turn{{"1", "I can come and fit the blinds on Tuesday the 31st. I'll be there at 9, it takes a morning."}, {"U", "Great."}},
			[]plan{{"Visit", "2026-03-31 09:00", 30}}},
		{"someone booked", []turn{{"1", "i can book a technician to look at the boiler on friday between nine and one"}, {"U", "yes please"}},
			[]plan{{"Technician Visit", "2026-03-27 09:00", 180}}},
		{"someone comes to see", []turn{{"1", "An assessor can see the flat on Tuesday the 31st at two."}, {"U", "Fine."}},
			[]plan{{"Assessor Visit", "2026-03-31 14:00", 30}}},
		{"talk again, unpunctuated", []turn{{"1", "okay please check and we'll talk again next thursday at one"}, {"U", "next thursday at one works"}},
			[]plan{{"Call", "2026-04-02 13:00", 30}}},
		{"same time, asked and confirmed", []turn{{"1", "Keep up the stretches."}, {"U", "Will do. Same time next Monday?"}, {"1", "Yes, Monday it is."}},
			[]plan{{"Appointment", "2026-03-30 13:00", 30}}},
		{"same time, asked and refused", []turn{{"U", "Same time next Monday?"}, {"1", "No, I'm away then."}}, []plan{}},
		{"an event put on", []turn{{"1", "we're having a housewarming on saturday the 28th from about three if you're free"}, {"U", "love to"}},
			[]plan{{"Housewarming", "2026-03-28 15:00", 30}}},
		{"a table asked for", []turn{{"U", "I'd like a table for four on Friday at eight, please."}, {"1", "Friday at eight for four, done."}},
			[]plan{{"Table Reservation", "2026-03-27 20:00", 30}}},
		{"seen again", []turn{{"1", "the agent says we can see the flat again on monday at five thirty"}, {"U", "let's do it"}},
			[]plan{{"Appointment", "2026-03-30 17:30", 30}}},
		{"a deadline is no event", []turn{{"1", "The presentation is due Friday at noon."}, {"U", "Okay."}}, []plan{}},
		{"done by a time is no event", []turn{{"U", "I'll have the workshop slides by Monday at 9."}}, []plan{}},
		{"the day said before the hour", []turn{{"1", "Mum's birthday is on the 3rd. Sixty!"}, {"U", "Wow. What's the plan?"}, {"1", "I booked a table at Luigi's for seven thirty."}},
			[]plan{{"Table at Luigi's", "2026-04-03 19:30", 30}}},
		{"a deadline before the hour is no day", []turn{{"1", "The forms are due on the 3rd."}, {"U", "Okay."}, {"1", "Let's meet at four to fill them in."}},
			[]plan{{"Meeting", "2026-03-26 16:00", 30}}},
		{"the user calling at a shop", []turn{{"1", "Your glasses will be ready on Tuesday."}, {"U", "Great, I'll come by Tuesday at five then."}}, []plan{}},
		{"the speaker's own errand", []turn{{"U", "I'll pick up the parcel on Friday at 5."}}, []plan{}},
		{"a deadline is no plan", []turn{{"1", "The final headcount is due by April 1st."}, {"U", "We're at one hundred and ten."}}, []plan{}},
		{"a count is no clock", []turn{{"1", "The quarterly count is on Monday."}, {"U", "We're at one hundred and ten boxes."}}, []plan{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := structure(t, dialogueInput(thu, tt.turns...))
			if d := cmp.Diff(tt.want, plans(s, berlin)); d != "" {
				t.Errorf("events (-want +got):\n%s", d)
			}
		})
	}
}

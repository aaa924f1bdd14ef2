package builtin

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hearth-appliance/hearth/appliance"
)

// clauseText shows the clauses of text separated by " | ".
func clauseText(text string, runOn bool) string {
	ws := splitWords(text)
	var parts []string
	for _, c := range clauses(ws, runOn) {
		var p []string
		for _, w := range ws[c[0]:c[1]] {
			p = append(p, w.text)
		}
		parts = append(parts, strings.Join(p, " "))
	}
	return strings.Join(parts, " | ")
}

func TestRunOnClauses(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		// requests
		{"finance wants the figures before the board meeting can you send them the budget report",
			"finance wants the figures before the board meeting | can you send them the budget report"},
		{"the numbers look fine so could you send them", "the numbers look fine | so could you send them"},
		{"what can you do about it", "what can you do about it"},
		{"do you think you could send it", "do you think you could send it"},
		{"any chance you could pull the numbers", "any chance you could pull the numbers"},
		// please
		{"send them the budget report please remind the team", "send them the budget report | please remind the team"},
		{"send them the report and please call the bank", "send them the report | and please call the bank"},
		{"can you please send it", "can you please send it"},
		{"yes please send it", "yes please send it"},
		{"send it please by friday", "send it please by friday"},
		{"send it please", "send it please"},
		// after a date said with its month or ordinal, the next subject
		// opens a clause; after a time cue, an imperative; after a bare
		// modal answer, "let's"
		{"the conference is the ninth and tenth of december my talk is on the tenth at two",
			"the conference is the ninth and tenth of december | my talk is on the tenth at two"},
		{"the move is on the twelfth of january the van is booked for eight",
			"the move is on the twelfth of january | the van is booked for eight"},
		{"the wedding is on the fourth our band is confirmed", "the wedding is on the fourth | our band is confirmed"},
		{"i'll do it on friday my sister tom said she'd help", "i'll do it on friday | my sister tom said she'd help"},
		{"you can go home today take the tablets with food", "you can go home today | take the tablets with food"},
		{"the parcel comes tomorrow call me when it does", "the parcel comes tomorrow | call me | when it does"},
		{"you can go home today keep the dressing dry", "you can go home today | keep the dressing dry"},
		{"we meet on tuesday at nine", "we meet on tuesday at nine"},
		{"i can do monday and wednesday tuesday is football", "i can do monday and wednesday | tuesday is football"},
		{"the best day is tuesday", "the best day is tuesday"},
		{"i think next tuesday is fine", "i think next tuesday is fine"},
		{"so on friday is it", "so on friday is it"},
		{"the one you prefer", "the one you prefer"},
		{"whatever you love", "whatever you love"},
		{"we'll go tomorrow go figure", "we'll go tomorrow | go figure"},
		{"we'll go tomorrow keep it", "we'll go tomorrow | keep it"},
		{"the keep tomorrow is open", "the keep tomorrow is open"},
		{"the van is booked for eight in the morning before that i need to give notice",
			"the van is booked for eight in the morning | before that i need to give notice"},
		{"before that we should eat", "before that we should eat"},
		{"see you tomorrow morning", "see you tomorrow morning"},
		{"i could let's say thursday", "i could | let's say thursday"},
		{"what can let's do", "what can let's do"},
		{"it may be late", "it may be late"},
		{"i need to renew my card it expired last month", "i need to renew my card | it expired last month"},
		// a subject opens a clause
		{"thanks for joining the call this morning we need to send the report", "thanks for joining the call this morning | we need to send the report"},
		{"the offsite starts monday at nine i'll send the agenda", "the offsite starts monday at nine | i'll send the agenda"},
		{"the shelf in the hallway it's been like that for months", "the shelf in the hallway | it's been like that for months"},
		{"the report and then i'll call you", "the report | and then i'll call you"},
		{"print it before then because she hates laptops", "print it before then | because she hates laptops"},
		{"i think we should go", "i think we should go"},
		{"she said it's fine", "she said it's fine"},
		{"so that we can test", "so that we can test"},
		{"what i want is a nap", "what i want is a nap"},
		// a cue that opens the clause stays with it
		{"today i'm going to finish the script", "today i'm going to finish the script"},
		{"okay so tomorrow morning can you call them", "okay so tomorrow morning can you call them"},
		// after a time cue, a new subject with a copula
		{"send a quote by wednesday our procurement meeting is thursday", "send a quote by wednesday | our procurement meeting is thursday"},
		{"see you tomorrow the plumber is coming", "see you tomorrow | the plumber is coming"},
		{"send it by wednesday our team", "send it by wednesday our team"},
		{"our board meeting is next thursday at 3 so the deck should be final by tuesday night",
			"our board meeting is next thursday at 3 | so the deck should be final by tuesday night"},
	}
	for _, tt := range tests {
		if got := clauseText(tt.in, true); got != tt.want {
			t.Errorf("%q\n got %q\nwant %q", tt.in, got, tt.want)
		}
	}
}

// TestRunOnRulesNeedRunOnSpeech: a punctuated segment keeps its writer's clauses.
func TestRunOnRulesNeedRunOnSpeech(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		"Finance wants the figures before the board meeting can you send them the budget report?",
		"Thanks for joining the call this morning we need to send the report.",
	} {
		if got := clauseText(in, false); strings.Contains(got, "|") {
			t.Errorf("%q split into %q", in, got)
		}
	}
	segs := []appliance.TranscriptSegment{
		{Text: "Thanks for the call this morning we need to send the report.", Speaker: "SPEAKER_00"},
		{Text: "thanks for the call this morning we need to send the report", Speaker: "SPEAKER_00"},
	}
	dl := newDialogue(parseSegments(segs), segs, "")
	if n0, n1 := len(dl.utts[0].clauses), len(dl.utts[1].clauses); n0 != 1 || n1 != 2 {
		t.Errorf("clauses: punctuated segment %d, unpunctuated %d; want 1 and 2", n0, n1)
	}
}

// TestLongRunIsCutAtARequest: a long unpunctuated segment is cut into
// sentences where a request or commitment opens, not inside one.
func TestLongRunIsCutAtARequest(t *testing.T) {
	t.Parallel()
	d := parseSegments([]appliance.TranscriptSegment{{Text: "okay so the numbers from last quarter look good overall and " +
		"finance is happy with them can you send them the budget report by friday at two please remind the team " +
		"about the offsite and the new schedule for next week"}})
	var got []string
	for _, s := range d.sentences {
		got = append(got, s.text)
	}
	want := []string{
		"okay so the numbers from last quarter look good overall and finance is happy with them can you send them the budget report by friday at two",
		"please remind the team about the offsite and the new schedule for next week",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("sentences (-want +got):\n%s", d)
	}
}

func TestTaskDescriptionStopsAtTheNextRequest(t *testing.T) {
	t.Parallel()
	ny := mustZone(t, "America/New_York")
	wed := time.Date(2026, 3, 11, 15, 0, 0, 0, ny)
	tests := []struct {
		text string
		want []item
	}{
		{"Can you send them the budget report please remind the team?", []item{{"Send them the budget report", ""}}},
		{"Can you send them the budget report and please call Ana?", []item{{"Send them the budget report", ""}}},
		{"Can you send them the budget report please?", []item{{"Send them the budget report", ""}}},
		{"Can you send them the report please by Friday?", []item{{"Send them the report", "2026-03-13 23:59"}}},
	}
	for _, tt := range tests {
		s := structure(t, dialogueInput(wed, turn{"1", tt.text}, turn{"U", "Sure."}))
		if d := cmp.Diff(tt.want, items(s, ny)); d != "" {
			t.Errorf("%q (-want +got):\n%s", tt.text, d)
		}
	}
}

package punctuate

import (
	"testing"

	"github.com/hearth-appliance/hearth/appliance/stt"
)

// Timings recorded from the PocketSphinx route (localstt/pocketsphinx,
// streaming, en-us model) on Festival's cmu_us_slt_arctic_hts voice at 16
// kHz, recognition errors included. Each slice is what the stream delivered
// as one batch.

// joined300 is four sentences synthesised one by one and joined by 300 ms of
// silence (below the VAD's 360 ms, so one batch): "hi maria, thanks for
// joining the call this morning / can you send them the budget report by
// friday at two / please remind the team about the offsite, and the new
// schedule / well, i think we are done for today".
var joined300 = []stt.Word{
	{Text: "hi", Start: 0.49, End: 0.67}, {Text: "maria", Start: 0.67, End: 1.18},
	{Text: "thanks", Start: 1.23, End: 1.60}, {Text: "for", Start: 1.60, End: 1.81},
	{Text: "joining", Start: 1.81, End: 2.21}, {Text: "the", Start: 2.21, End: 2.28},
	{Text: "call", Start: 2.28, End: 2.59}, {Text: "this", Start: 2.59, End: 2.80},
	{Text: "morning", Start: 2.80, End: 3.31},
	{Text: "can", Start: 3.58, End: 3.79}, {Text: "you", Start: 3.79, End: 3.91},
	{Text: "send", Start: 3.91, End: 4.19}, {Text: "them", Start: 4.19, End: 4.39},
	{Text: "the", Start: 4.39, End: 4.47}, {Text: "the", Start: 4.47, End: 4.69},
	{Text: "report", Start: 4.72, End: 5.28}, {Text: "by", Start: 5.28, End: 5.52},
	{Text: "friday", Start: 5.52, End: 5.97}, {Text: "and", Start: 5.97, End: 6.10},
	{Text: "to", Start: 6.10, End: 6.38},
	{Text: "please", Start: 6.66, End: 6.86}, {Text: "remind", Start: 6.86, End: 7.28},
	{Text: "the", Start: 7.28, End: 7.36}, {Text: "team", Start: 7.36, End: 7.65},
	{Text: "about", Start: 7.65, End: 7.90}, {Text: "the", Start: 7.90, End: 8.03},
	{Text: "off", Start: 8.03, End: 8.24}, {Text: "side", Start: 8.24, End: 8.63},
	{Text: "and", Start: 8.68, End: 8.86}, {Text: "the", Start: 8.86, End: 8.92},
	{Text: "new", Start: 8.92, End: 9.09}, {Text: "schedule", Start: 9.09, End: 9.67},
	{Text: "well", Start: 9.96, End: 10.20}, {Text: "i", Start: 10.20, End: 10.35},
	{Text: "think", Start: 10.35, End: 10.65}, {Text: "we're", Start: 10.65, End: 10.96},
	{Text: "done", Start: 10.96, End: 11.19}, {Text: "for", Start: 11.19, End: 11.39},
	{Text: "today", Start: 11.39, End: 11.92},
}

// joined200 is the same audio with 200 ms of silence between the sentences:
// PocketSphinx reports those pauses as 0.17–0.19 s, below SentencePause.
var joined200 = []stt.Word{
	{Text: "hi", Start: 0.49, End: 0.67}, {Text: "maria", Start: 0.67, End: 1.18},
	{Text: "thanks", Start: 1.23, End: 1.60}, {Text: "for", Start: 1.60, End: 1.81},
	{Text: "joining", Start: 1.81, End: 2.21}, {Text: "the", Start: 2.21, End: 2.28},
	{Text: "call", Start: 2.28, End: 2.59}, {Text: "this", Start: 2.59, End: 2.80},
	{Text: "morning", Start: 2.80, End: 3.31},
	{Text: "can", Start: 3.48, End: 3.69}, {Text: "you", Start: 3.69, End: 3.81},
	{Text: "send", Start: 3.81, End: 4.09}, {Text: "them", Start: 4.09, End: 4.29},
	{Text: "the", Start: 4.29, End: 4.37}, {Text: "the", Start: 4.37, End: 4.59},
	{Text: "report", Start: 4.62, End: 5.18}, {Text: "by", Start: 5.18, End: 5.42},
	{Text: "friday", Start: 5.42, End: 5.87}, {Text: "and", Start: 5.87, End: 6.00},
	{Text: "to", Start: 6.00, End: 6.28},
	{Text: "please", Start: 6.45, End: 6.66}, {Text: "remind", Start: 6.66, End: 7.08},
	{Text: "the", Start: 7.08, End: 7.16}, {Text: "team", Start: 7.16, End: 7.45},
	{Text: "about", Start: 7.45, End: 7.70}, {Text: "the", Start: 7.70, End: 7.83},
	{Text: "off", Start: 7.83, End: 8.04}, {Text: "side", Start: 8.04, End: 8.43},
	{Text: "and", Start: 8.48, End: 8.66}, {Text: "the", Start: 8.66, End: 8.72},
	{Text: "new", Start: 8.72, End: 8.89}, {Text: "schedule", Start: 8.89, End: 9.47},
	{Text: "well", Start: 9.66, End: 9.90}, {Text: "i", Start: 9.90, End: 10.05},
	{Text: "think", Start: 10.05, End: 10.35}, {Text: "we're", Start: 10.35, End: 10.66},
	{Text: "done", Start: 10.66, End: 10.89}, {Text: "for", Start: 10.89, End: 11.09},
	{Text: "today", Start: 11.09, End: 11.62},
}

// festivalBatches is one punctuated text read by Festival with its own
// pauses: "Hi Maria, thanks for joining the call this morning. I looked at
// the numbers yesterday. Can you send them the budget report by Friday at
// two? …". Its pauses between sentences pass 360 ms, so the VAD made each
// sentence a batch; the comma after "maria" is a 0.10 s gap.
var festivalBatches = [][]stt.Word{
	{{Text: "hi", Start: 0.57, End: 0.81}, {Text: "maria", Start: 0.81, End: 1.27}, {Text: "thanks", Start: 1.37, End: 1.74},
		{Text: "for", Start: 1.74, End: 1.95}, {Text: "joining", Start: 1.95, End: 2.35}, {Text: "the", Start: 2.35, End: 2.43},
		{Text: "call", Start: 2.43, End: 2.73}, {Text: "this", Start: 2.73, End: 2.94}, {Text: "morning", Start: 2.94, End: 3.50}},
	{{Text: "i", Start: 3.85, End: 3.92}, {Text: "looked", Start: 3.92, End: 4.19}, {Text: "at", Start: 4.19, End: 4.30},
		{Text: "the", Start: 4.30, End: 4.39}, {Text: "numbers", Start: 4.39, End: 4.84}, {Text: "yesterday", Start: 4.84, End: 5.77}},
	{{Text: "can", Start: 6.13, End: 6.31}, {Text: "you", Start: 6.31, End: 6.43}, {Text: "send", Start: 6.43, End: 6.71},
		{Text: "them", Start: 6.71, End: 6.91}, {Text: "the", Start: 6.91, End: 7.01}, {Text: "budget", Start: 7.01, End: 7.24},
		{Text: "report", Start: 7.24, End: 7.80}, {Text: "by", Start: 7.80, End: 8.04}, {Text: "friday", Start: 8.04, End: 8.49},
		{Text: "at", Start: 8.49, End: 8.64}, {Text: "you", Start: 8.64, End: 8.95}},
	{{Text: "please", Start: 9.31, End: 9.55}, {Text: "remind", Start: 9.55, End: 9.97}, {Text: "the", Start: 9.97, End: 10.04},
		{Text: "team", Start: 10.04, End: 10.33}, {Text: "about", Start: 10.33, End: 10.59}, {Text: "the", Start: 10.59, End: 10.71},
		{Text: "off", Start: 10.71, End: 10.93}, {Text: "side", Start: 10.93, End: 11.28}},
	{{Text: "what", Start: 11.65, End: 11.80}, {Text: "time", Start: 11.80, End: 12.12}, {Text: "does", Start: 12.12, End: 12.33},
		{Text: "the", Start: 12.33, End: 12.41}, {Text: "train", Start: 12.41, End: 12.81}, {Text: "leave", Start: 12.81, End: 13.28}},
	{{Text: "i", Start: 13.57, End: 13.65}, {Text: "will", Start: 13.65, End: 13.84}, {Text: "call", Start: 13.84, End: 14.13},
		{Text: "the", Start: 14.13, End: 14.21}, {Text: "plumber", Start: 14.21, End: 14.62}, {Text: "tomorrow", Start: 14.62, End: 15.18}},
	{{Text: "thanks", Start: 15.53, End: 15.90}, {Text: "bye", Start: 15.90, End: 16.32}},
}

func TestPunctuatePocketSphinxTimings(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   []stt.Word
		want string
	}{
		{"sentences joined by 300 ms", joined300,
			"Hi maria thanks for joining the call this morning. Can you send them the the report by friday and to? " +
				"Please remind the team about the off side and the new schedule. Well I think we're done for today."},
		{"sentences joined by 200 ms stay one", joined200,
			"Hi maria thanks for joining the call this morning can you send them the the report by friday and to " +
				"please remind the team about the off side and the new schedule well I think we're done for today."},
	}
	for i, b := range festivalBatches {
		want := []string{
			"Hi maria thanks for joining the call this morning.",
			"I looked at the numbers yesterday.",
			"Can you send them the budget report by friday at you?",
			"Please remind the team about the off side.",
			"What time does the train leave?",
			"I will call the plumber tomorrow.",
			"Thanks bye.",
		}[i]
		tests = append(tests, struct {
			name string
			in   []stt.Word
			want string
		}{"festival batch " + want, b, want})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := Punctuate(tt.in)
			if g := text(got); g != tt.want {
				t.Errorf("\n got %q\nwant %q", g, tt.want)
			}
			checkTimings(t, tt.in, got)
		})
	}
}

// TestSentencePauseSeparatesMeasuredGaps: every gap inside a recorded
// sentence is below SentencePause and every 300 ms pause between sentences
// reaches it.
func TestSentencePauseSeparatesMeasuredGaps(t *testing.T) {
	t.Parallel()
	inside, between := 0.0, 1.0
	for _, b := range festivalBatches {
		for i := 1; i < len(b); i++ {
			inside = max(inside, b[i].Start-b[i-1].End)
		}
	}
	starts := map[string]bool{"can": true, "please": true, "well": true}
	for i := 1; i < len(joined300); i++ {
		gap := joined300[i].Start - joined300[i-1].End
		if starts[joined300[i].Text] && joined300[i-1].Text != "you" {
			between = min(between, gap)
		} else {
			inside = max(inside, gap)
		}
	}
	t.Logf("longest gap inside a sentence %.2f s, shortest 300 ms pause between sentences %.2f s", inside, between)
	if inside >= SentencePause || between < SentencePause-epsilon {
		t.Errorf("SentencePause %.2f s does not separate %.2f s (inside) from %.2f s (between)", SentencePause, inside, between)
	}
}

package builtin

import (
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// What the external tests (package builtin_test, which run the whole
// pipeline and so cannot live inside the package pipeline imports) read of
// the extractor's internals.

var (
	Meridiem   = meridiem
	DigitAt    = digitAt
	Segments   = segments
	BenchInput = benchInput
	BudgetCall = budgetCall
	MustZone   = mustZone
)

const (
	MaxActionItems   = maxActionItems
	MaxTitleWords    = maxTitleWords
	MaxOverviewRunes = maxOverviewRunes
)

// IsPlaceholder reports a word that names the act of talking.
func IsPlaceholder(w string) bool { return inSet(placeholderWords, w) }

// TimingEnd is when the extractor takes the conversation to have ended.
func TimingEnd(in appliance.TranscriptInput) time.Time { return newTiming(in).end }

// SampleTexts are the sample conversations' segments.
func SampleTexts() [][]string {
	out := make([][]string, len(samples))
	for i, s := range samples {
		out[i] = s.segments
	}
	return out
}

// DialogueInput is dialogueInput with each turn as {who, text}.
func DialogueInput(start time.Time, turns ...[2]string) appliance.TranscriptInput {
	ts := make([]turn, len(turns))
	for i, t := range turns {
		ts[i] = turn{t[0], t[1]}
	}
	return dialogueInput(start, ts...)
}

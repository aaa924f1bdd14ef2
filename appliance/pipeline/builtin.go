package pipeline

import (
	"context"

	"github.com/hearth-appliance/hearth/appliance"
)

// Builtin is the offline extractor: deterministic heuristics with no model
// files and no network, fast enough (a fraction of a millisecond for a long
// transcript) to run inline on every conversation. It holds no state, so one
// value may be shared by any number of goroutines.
//
// English transcripts get keyword-scored titles, extractive overviews and a
// lexicon category. Other languages degrade gracefully: the title is made of
// the most frequent longer words (or CJK n-grams), the overview is the first
// sentences, and the category is "other".
type Builtin struct{}

var _ appliance.Extractor = (*Builtin)(nil)

// NewBuiltin returns the offline extractor.
func NewBuiltin() *Builtin { return &Builtin{} }

// Name identifies the route in logs.
func (*Builtin) Name() string { return "builtin" }

// ShouldDiscard reports whether the transcript is too trivial to keep: no
// content words, a Siri-like one-liner, or a fragment of fewer than four
// content words with no task, plan, question or personal-fact cue.
func (*Builtin) ShouldDiscard(ctx context.Context, in appliance.TranscriptInput) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	discard, _ := analyze(parseSegments(in.Segments), in.Language).shouldDiscard()
	return discard, nil
}

// Structure fills title, overview, emoji and category. Action items and
// events are always empty: the built-in route does not extract them.
func (*Builtin) Structure(ctx context.Context, in appliance.TranscriptInput) (appliance.Structured, error) {
	if err := ctx.Err(); err != nil {
		return appliance.Structured{}, err
	}
	a := analyze(parseSegments(in.Segments), in.Language)
	s := appliance.Structured{
		Category:    appliance.CategoryOther,
		ActionItems: []appliance.ActionItem{},
		Events:      []appliance.Event{},
	}
	s.Title = a.title()
	if s.Title != "" {
		s.Overview = a.overview()
		if s.Overview == "" {
			// Unreachable in practice (a title needs a content word, which
			// lives in some sentence), kept so the invariant never breaks.
			s.Overview = cleanSentence(truncateRunes(joinSegments(in.Segments), maxOverviewRunes))
		}
		if a.english {
			s.Category = classify(a)
		}
	}
	s.Emoji = emojiFor(s.Category)
	return s, nil
}

// Memories implements appliance.Extractor.
func (*Builtin) Memories(ctx context.Context, in appliance.TranscriptInput) ([]appliance.Memory, error) {
	return nil, nil
}

package builtin

import (
	"context"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

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
type Builtin struct {
	model func() *ClauseModel // returns nil: the rules alone
}

var _ appliance.Extractor = (*Builtin)(nil)

// New returns the offline extractor.
func New() *Builtin { return &Builtin{model: shippedModel} }

// shippedModel is the embedded clause model when it changes anything, read
// at the first conversation rather than in New: parsing its weights takes
// about 3 ms, which start-up would otherwise wait for, and a model the
// trainer gave no floors (the rules alone scored as well) is never read
// again.
var shippedModel = sync.OnceValue(func() *ClauseModel {
	m := embeddedModel()
	if m.TaskFloor <= 0 && m.PlanFloor <= 0 && m.TaskPropose <= 0 {
		return nil
	}
	return m
})

// NewWithModel is the offline extractor checked by the clause model m
// instead of the embedded one; nil is the rules alone. For measuring the
// model (cross-validation in appliance/pipeline/eval).
func NewWithModel(m *ClauseModel) *Builtin {
	return &Builtin{model: func() *ClauseModel { return m }}
}

// Name identifies the route in logs.
func (*Builtin) Name() string { return "builtin" }

// ShouldDiscard reports whether the transcript is too trivial to keep: no
// content words, a Siri-like one-liner, a fragment of fewer than four
// content words with no task, plan, question or personal-fact cue, or
// small talk (see smallTalk).
func (*Builtin) ShouldDiscard(ctx context.Context, in appliance.TranscriptInput) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	d := parseSegmentsPooled(in.Segments)
	defer d.release() // after a's: deferred calls run last in, first out
	a := analyze(d, in.Language)
	defer a.release()
	discard, why := a.shouldDiscard()
	switch {
	case !discard:
		discard = a.smallTalk(in)
	case why == "fragment" && a.english:
		// "Can you grab the post?" "Sure, will do.": a task or a plan read
		// from a few words is a keep cue too
		discard = !a.yieldsTaskOrPlan(in)
	}
	return discard, nil
}

// Structure fills title, overview, emoji, category, and (for English) the
// user's action items and dated plans. Times are resolved in in.Location
// (nil: the appliance's zone) relative to in.StartedAt and stored in UTC;
// without a start time, tasks get no due date and no events are dated.
func (b *Builtin) Structure(ctx context.Context, in appliance.TranscriptInput) (appliance.Structured, error) {
	if err := ctx.Err(); err != nil {
		return appliance.Structured{}, err
	}
	s, _ := structureOf(parseSegments(in.Segments), in, b.model())
	return s, nil
}

// StructureAndMemories is Structure and Memories from one parse of the
// transcript and one reading of its dialogue; the pipeline calls it instead
// of the two, which each parsed the whole transcript (a quarter of a
// create's allocations).
func (b *Builtin) StructureAndMemories(ctx context.Context, in appliance.TranscriptInput) (appliance.Structured, []appliance.Memory, error) {
	if err := ctx.Err(); err != nil {
		return appliance.Structured{}, nil, err
	}
	d := parseSegmentsPooled(in.Segments)
	defer d.release() // what both return are strings and values, none of d
	s, dl := structureOf(d, in, b.model())
	return s, memoriesOf(d, dl, in), nil
}

// structureOf is Structure on a parsed transcript. It also returns the
// dialogue it read for action items and events, or nil when it read none;
// extracting those leaves what memoriesOf reads unchanged.
func structureOf(d *document, in appliance.TranscriptInput, m *ClauseModel) (appliance.Structured, *dialogue) {
	a := analyze(d, in.Language)
	defer a.release()
	s := appliance.Structured{
		Category:    appliance.CategoryOther,
		ActionItems: []appliance.ActionItem{},
		Events:      []appliance.Event{},
	}
	var dl *dialogue
	s.Title = a.title()
	if s.Title != "" {
		s.Overview = a.overview()
		if s.Overview == "" {
			// Unreachable in practice (a title needs a content word, which
			// lives in some sentence), kept so the invariant never breaks.
			s.Overview = cleanSentence(truncateRunes(JoinSegments(in.Segments), maxOverviewRunes))
		}
		if a.english {
			s.Category = classify(a, s.Title)
			tm := newTiming(in)
			dl = newDialogue(a.doc, in.Segments, in.UserName)
			tasks := dl.actionItems(tm)
			var evUtts []int
			s.Events, evUtts = dl.eventsFrom(tm)
			tasks, s.Events = m.filter(dl, tm, tasks, s.Events, evUtts)
			tasks = m.propose(dl, tm, tasks)
			dl.dueBeforePlan(tasks, s.Events, tm)
			dl.dueWhenReady(tasks, tm)
			s.ActionItems = toActionItems(withoutOpen(tasks, in.OpenActionItems))
		}
	}
	s.Emoji = emojiFor(s.Category)
	return s, dl
}

// Memories returns at most two memories of an English transcript: facts
// the user states about themselves (system) and advice from others
// (interesting). Transcripts shorter than 25 characters give none, as in
// the reference; other languages give none.
func (*Builtin) Memories(ctx context.Context, in appliance.TranscriptInput) ([]appliance.Memory, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return memoriesOf(nil, nil, in), nil
}

// memoriesOf is Memories on a transcript already parsed (d) and read as a
// dialogue (dl), either of which may be nil; a dialogue given is of a
// transcript found English.
func memoriesOf(d *document, dl *dialogue, in appliance.TranscriptInput) []appliance.Memory {
	if utf8.RuneCountInString(strings.TrimSpace(JoinSegments(in.Segments))) < minMemoryTranscript {
		return []appliance.Memory{}
	}
	if dl == nil {
		// A dialogue is read only of a transcript found English
		// (structureOf), so only without one is the language asked.
		if d == nil {
			d = parseSegments(in.Segments)
		}
		if !quickEnglish(d, in.Language) {
			return []appliance.Memory{}
		}
		dl = newDialogue(d, in.Segments, in.UserName)
	}
	var ref time.Time
	if !in.StartedAt.IsZero() {
		ref = newTiming(in).ref
	}
	ms := dl.memories(ref)
	if ms == nil {
		ms = []appliance.Memory{}
	}
	return ms
}

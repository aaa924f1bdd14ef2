package pipeline

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"strings"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/pipeline/builtin"
)

// Pipeline turns a finished conversation into a structured one: discard
// decision, structure, normalisation, status. It holds no per-conversation
// state and is safe for concurrent use if its extractor is.
type Pipeline struct {
	ex     appliance.Extractor
	logger *slog.Logger
}

// Options tune one Process call (the domain's ProcessOptions).
type Options = appliance.ProcessOptions

// New returns a pipeline that structures with ex, which must not be nil. A
// nil logger discards logs.
func New(ex appliance.Extractor, logger *slog.Logger) *Pipeline {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Pipeline{ex: ex, logger: logger}
}

// Discard emojis: the reference picks one of these at random; Hearth picks
// by conversation id so reprocessing gives the same result.
const (
	discardEmojiA = "🧠"
	discardEmojiB = "🎉"
)

// Process decides whether c is worth keeping and, if so, structures it. On
// success c.Structured, c.Discarded and c.Status (completed) are set. When
// the extractor fails to structure, the error is returned and c is left
// unchanged so the caller can retry or mark it failed.
func (p *Pipeline) Process(ctx context.Context, c *appliance.Conversation, opt Options) (Result, error) {
	if c == nil {
		return Result{}, errors.New("process conversation: nil conversation")
	}
	if err := ctx.Err(); err != nil {
		return Result{}, fmt.Errorf("process conversation: %w", err)
	}
	in := input(c, opt)
	discard, rule := p.discard(ctx, c, in, opt)
	if discard {
		c.Structured = discardedStructure(c.ID)
		c.Discarded = true
		c.Status = appliance.StatusCompleted
		p.logger.DebugContext(ctx, "conversation discarded", "conversation_id", c.ID, "rule", rule, "extractor", p.ex.Name())
		return Result{}, nil
	}
	s, extracted, err := p.structure(ctx, in)
	if err != nil {
		return Result{}, fmt.Errorf("structure conversation: %w", err)
	}
	c.Structured = normalize(s)
	if c.Structured.Title == "" && (rule == ruleTextIntegration || rule == ruleForceProcess) {
		// These conversations must be kept, but a transcript with no topic
		// words ("Okay.") gives the extractor nothing to title. Name it by
		// what was said rather than let the empty title discard it.
		c.Structured.Title = builtin.UtteranceTitle(c.TranscriptSegments)
		if c.Structured.Overview == "" {
			c.Structured.Overview = builtin.UtteranceOverview(c.TranscriptSegments)
		}
	}
	// As in the reference: any empty title also counts as discarded.
	c.Discarded = c.Structured.Title == ""
	c.Status = appliance.StatusCompleted
	p.logger.DebugContext(ctx, "conversation structured", "conversation_id", c.ID, "rule", rule,
		"extractor", p.ex.Name(), "category", string(c.Structured.Category), "discarded", c.Discarded)
	if c.Discarded {
		return Result{}, nil
	}
	return Result{Memories: p.memories(ctx, c, in, extracted)}, nil
}

// structureAndMemories is implemented by extractors that get both from one
// reading of the transcript.
type structureAndMemories interface {
	StructureAndMemories(ctx context.Context, in appliance.TranscriptInput) (appliance.Structured, []appliance.Memory, error)
}

// structure asks the extractor for the structure, and for the memories too
// when it gives both at once (nil memories otherwise: memories asks later).
func (p *Pipeline) structure(ctx context.Context, in appliance.TranscriptInput) (appliance.Structured, []appliance.Memory, error) {
	if both, ok := p.ex.(structureAndMemories); ok {
		return both.StructureAndMemories(ctx, in)
	}
	s, err := p.ex.Structure(ctx, in)
	return s, nil, err
}

// Result is what processing produced besides the conversation itself (the
// domain's ProcessResult).
type Result = appliance.ProcessResult

// memories normalises the memories the extractor gave with the structure,
// or asks it for them when it gave none (nil). A failure costs the
// memories, never the conversation: it is logged and processing goes on.
func (p *Pipeline) memories(ctx context.Context, c *appliance.Conversation, in appliance.TranscriptInput, ms []appliance.Memory) []appliance.Memory {
	if ms == nil {
		var err error
		if ms, err = p.ex.Memories(ctx, in); err != nil {
			p.logger.WarnContext(ctx, "memory extraction failed", "conversation_id", c.ID, "extractor", p.ex.Name(), "err", err)
			return nil
		}
	}
	out := make([]appliance.Memory, 0, len(ms))
	for _, m := range ms {
		m.Content = strings.TrimSpace(m.Content)
		if m.Content == "" {
			continue
		}
		if m.Category != appliance.MemorySystem && m.Category != appliance.MemoryInteresting {
			m.Category = appliance.MemoryInteresting
		}
		out = append(out, m)
		if len(out) == appliance.MaxMemoriesPerConversation {
			break
		}
	}
	return out
}

// Rules that keep a conversation whatever its content.
const (
	ruleTextIntegration = "text_integration"
	ruleForceProcess    = "force_process"
)

// discard applies the reference's discard rules in order (text integrations
// and force_process keep; then length, filler-only and empty transcripts;
// then the extractor) and names the deciding rule.
func (p *Pipeline) discard(ctx context.Context, c *appliance.Conversation, in appliance.TranscriptInput, opt Options) (bool, string) {
	switch {
	case c.Source.IsTextIntegration():
		return false, ruleTextIntegration
	case opt.ForceProcess:
		return false, ruleForceProcess
	}
	if builtin.WordsOver(c.TranscriptSegments, keepWordCount) {
		return false, "substantial_length"
	}
	fillerOnly, empty := builtin.FillerOnly(c.TranscriptSegments, fillerOnlyMaxTokens)
	if fillerOnly {
		return true, "filler_only"
	}
	if empty && !hasPhotoDescription(c) {
		return true, "empty_transcript"
	}
	discard, err := p.ex.ShouldDiscard(ctx, in)
	if err != nil {
		// Fail open: losing a conversation is worse than keeping a trivial one.
		p.logger.WarnContext(ctx, "discard check failed; keeping conversation",
			"conversation_id", c.ID, "extractor", p.ex.Name(), "err", err)
		return false, "extractor_error"
	}
	return discard, "extractor"
}

// input is what the extractor sees of c.
func input(c *appliance.Conversation, opt Options) appliance.TranscriptInput {
	started := c.CreatedAt
	if c.StartedAt != nil {
		started = *c.StartedAt
	}
	loc := opt.Location
	if loc == nil {
		loc = time.Local
	}
	return appliance.TranscriptInput{
		Segments:  c.TranscriptSegments,
		Language:  c.Language,
		Source:    c.Source,
		StartedAt: started,
		Duration:  c.Duration(),
		Location:  loc,
		UserName:  opt.UserName,

		OpenActionItems: opt.OpenActionItems,
	}
}

// discardedStructure is the reference's Structured(title "") for a discarded
// conversation, with the emoji chosen by id instead of at random.
func discardedStructure(id string) appliance.Structured {
	s := appliance.EmptyStructured()
	h := fnv.New32a()
	h.Write([]byte(id))
	// FNV-1a's lowest bit only tracks the parity of the input bytes, so fold
	// the high half in before taking a bit.
	sum := h.Sum32()
	s.Emoji = discardEmojiA
	if (sum^sum>>16)&2 != 0 {
		s.Emoji = discardEmojiB
	}
	return s
}

// normalize makes any extractor's output satisfy the contract: a valid
// category, non-nil lists, event durations defaulted to 30 and capped at 180
// minutes, and created=false, as the reference's structuring step forces
// them. Slices are copied so
// the extractor's values are never aliased into the conversation.
func normalize(s appliance.Structured) appliance.Structured {
	s.Title = strings.TrimSpace(s.Title)
	s.Category = appliance.NormalizeCategory(string(s.Category))
	if s.Emoji == "" {
		s.Emoji = appliance.DefaultEmoji
	}
	items := make([]appliance.ActionItem, len(s.ActionItems))
	copy(items, s.ActionItems)
	s.ActionItems = items
	events := make([]appliance.Event, len(s.Events))
	for i, e := range s.Events {
		switch {
		case e.Duration <= 0:
			e.Duration = appliance.DefaultEventMinutes
		case e.Duration > appliance.MaxEventMinutes:
			e.Duration = appliance.MaxEventMinutes
		}
		e.Created = false
		events[i] = e
	}
	s.Events = events
	return s
}

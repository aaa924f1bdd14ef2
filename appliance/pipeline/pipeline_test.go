package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/pipeline/builtin"
)

// fakeExtractor is a function-field extractor: each test sets only the
// behaviour it needs; nil functions fail the test if called.
type fakeExtractor struct {
	t             *testing.T
	shouldDiscard func(context.Context, appliance.TranscriptInput) (bool, error)
	structure     func(context.Context, appliance.TranscriptInput) (appliance.Structured, error)
	memories      func(context.Context, appliance.TranscriptInput) ([]appliance.Memory, error)
	discardCalls  atomic.Int32
	structCalls   atomic.Int32
}

var _ appliance.Extractor = (*fakeExtractor)(nil)

func (f *fakeExtractor) Name() string { return "fake" }

func (f *fakeExtractor) Memories(ctx context.Context, in appliance.TranscriptInput) ([]appliance.Memory, error) {
	if f.memories == nil {
		return nil, nil
	}
	return f.memories(ctx, in)
}

func (f *fakeExtractor) ShouldDiscard(ctx context.Context, in appliance.TranscriptInput) (bool, error) {
	f.discardCalls.Add(1)
	if f.shouldDiscard == nil {
		f.t.Error("ShouldDiscard called unexpectedly")
		return false, nil
	}
	return f.shouldDiscard(ctx, in)
}

func (f *fakeExtractor) Structure(ctx context.Context, in appliance.TranscriptInput) (appliance.Structured, error) {
	f.structCalls.Add(1)
	if f.structure == nil {
		f.t.Error("Structure called unexpectedly")
		return appliance.Structured{}, nil
	}
	return f.structure(ctx, in)
}

func alwaysDiscard(context.Context, appliance.TranscriptInput) (bool, error) { return true, nil }
func neverDiscard(context.Context, appliance.TranscriptInput) (bool, error)  { return false, nil }

func titled(title string) func(context.Context, appliance.TranscriptInput) (appliance.Structured, error) {
	return func(context.Context, appliance.TranscriptInput) (appliance.Structured, error) {
		return appliance.Structured{Title: title, Overview: "o", Emoji: "🧪", Category: "work"}, nil
	}
}

var created = time.Date(2026, 3, 4, 10, 0, 0, 0, time.UTC)

func conversation(source appliance.ConversationSource, texts ...string) *appliance.Conversation {
	return &appliance.Conversation{
		ID:                 conversationID(texts),
		UserID:             "u1",
		CreatedAt:          created,
		Source:             source,
		Language:           "en",
		Status:             appliance.StatusProcessing,
		Structured:         appliance.EmptyStructured(),
		TranscriptSegments: segments(texts...),
	}
}

// conversationID derives an id from the texts, so ids differ between tests
// without carrying transcript words into logs.
func conversationID(texts []string) string {
	h := fnv.New64a()
	h.Write([]byte(strings.Join(texts, "\n")))
	return fmt.Sprintf("conv-%016x", h.Sum64())
}

// chat120 is a 120-word conversation with no keep cue in the first words.
var chat120 = strings.TrimSpace(strings.Repeat("so the garden looked great and the roses came back after that cold snap, ", 8))

func TestProcessDiscardRules(t *testing.T) {
	t.Parallel()
	if n := builtin.WordCount(chat120); n <= keepWordCount {
		t.Fatalf("chat120 has %d words, want more than %d", n, keepWordCount)
	}
	tests := []struct {
		name          string
		conv          *appliance.Conversation
		opt           Options
		shouldDiscard func(context.Context, appliance.TranscriptInput) (bool, error)
		wantDiscarded bool
		wantAsked     bool // ShouldDiscard consulted
	}{
		{"workflow text never discards", conversation(appliance.SourceWorkflow, "ok"), Options{}, nil, false, false},
		{"external integration never discards", conversation(appliance.SourceExternalIntegration, "hmm"), Options{}, nil, false, false},
		{"force process never discards", conversation(appliance.SourceOmi, "okay"), Options{ForceProcess: true}, nil, false, false},
		{"long transcript always keeps", conversation(appliance.SourceOmi, chat120), Options{}, nil, false, false},
		{"filler only", conversation(appliance.SourceOmi, "okay"), Options{}, nil, true, false},
		{"filler and function words", conversation(appliance.SourceOmi, "hmm yeah", "I mean, you know, that's it"), Options{}, nil, true, false},
		{"thanks bye", conversation(appliance.SourceOmi, "Thanks, bye!"), Options{}, nil, true, false},
		{"cjk backchannel", conversation(appliance.SourceOmi, "嗯嗯，好的，对对对"), Options{}, nil, true, false},
		{"empty", conversation(appliance.SourceOmi, ""), Options{}, nil, true, false},
		{"no segments", conversation(appliance.SourceOmi), Options{}, nil, true, false},
		{"yes is an answer", conversation(appliance.SourceOmi, "yes"), Options{}, alwaysDiscard, true, true},
		{"name homograph protects", conversation(appliance.SourceOmi, "okay Will"), Options{}, neverDiscard, false, true},
		{"extractor discards", conversation(appliance.SourceOmi, "hey siri what time is it"), Options{}, alwaysDiscard, true, true},
		{"extractor keeps", conversation(appliance.SourceOmi, "call the plumber"), Options{}, neverDiscard, false, true},
		{"extractor fails open", conversation(appliance.SourceOmi, "call the plumber"), Options{},
			func(context.Context, appliance.TranscriptInput) (bool, error) { return true, errors.New("model down") }, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fake := &fakeExtractor{t: t, shouldDiscard: tt.shouldDiscard, structure: titled("Plumber Visit")}
			if _, err := New(fake, nil).Process(context.Background(), tt.conv, tt.opt); err != nil {
				t.Fatal(err)
			}
			c := tt.conv
			if c.Discarded != tt.wantDiscarded {
				t.Errorf("Discarded = %v, want %v", c.Discarded, tt.wantDiscarded)
			}
			if asked := fake.discardCalls.Load() > 0; asked != tt.wantAsked {
				t.Errorf("ShouldDiscard asked = %v, want %v", asked, tt.wantAsked)
			}
			if c.Status != appliance.StatusCompleted {
				t.Errorf("Status = %q, want completed", c.Status)
			}
			if tt.wantDiscarded {
				if fake.structCalls.Load() != 0 {
					t.Error("Structure called for a discarded conversation")
				}
				checkDiscardedStructure(t, c)
			} else if c.Structured.Title != "Plumber Visit" {
				t.Errorf("Title = %q, want the extractor's", c.Structured.Title)
			}
		})
	}
}

func checkDiscardedStructure(t *testing.T, c *appliance.Conversation) {
	t.Helper()
	s := c.Structured
	if s.Title != "" || s.Overview != "" || s.Category != appliance.CategoryOther ||
		s.ActionItems == nil || len(s.ActionItems) != 0 || s.Events == nil || len(s.Events) != 0 {
		t.Errorf("discarded structure = %+v, want empty with category other and empty lists", s)
	}
	if s.Emoji != "🧠" && s.Emoji != "🎉" {
		t.Errorf("discarded emoji = %q, want 🧠 or 🎉", s.Emoji)
	}
}

func TestProcessBuiltin(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name          string
		conv          *appliance.Conversation
		opt           Options
		wantDiscarded bool
	}{
		{"okay", conversation(appliance.SourceOmi, "okay"), Options{}, true},
		{"hmm yeah", conversation(appliance.SourceOmi, "hmm yeah"), Options{}, true},
		{"thanks bye", conversation(appliance.SourceOmi, "thanks bye"), Options{}, true},
		{"siri", conversation(appliance.SourceOmi, "hey siri what time is it"), Options{}, true},
		{"empty", conversation(appliance.SourceOmi, ""), Options{}, true},
		{"fragment", conversation(appliance.SourceFriend, "nice weather today huh"), Options{}, true},
		{"120-word chat", conversation(appliance.SourceOmi, chat120), Options{}, false},
		{"dentist", conversation(appliance.SourceOmi, "I need to call the dentist tomorrow about my appointment"), Options{}, false},
		{"workflow one word", conversation(appliance.SourceWorkflow, "Groceries"), Options{}, false},
		{"force process fragment", conversation(appliance.SourceOmi, "nice weather today huh"), Options{ForceProcess: true}, false},
		{"budget meeting", conversation(appliance.SourcePhone, budgetMeeting...), Options{}, false},
		// Kept by the rules with nothing to title: named by its words, never
		// discarded (force_process never discards, as in the reference).
		{"force process filler", conversation(appliance.SourceOmi, "okay"), Options{ForceProcess: true}, false},
	}
	p := New(NewBuiltin(), nil)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := tt.conv
			if _, err := p.Process(context.Background(), c, tt.opt); err != nil {
				t.Fatal(err)
			}
			if c.Discarded != tt.wantDiscarded {
				t.Errorf("Discarded = %v, want %v (structured %+v)", c.Discarded, tt.wantDiscarded, c.Structured)
			}
			if c.Status != appliance.StatusCompleted {
				t.Errorf("Status = %q, want completed", c.Status)
			}
			if c.Discarded != (c.Structured.Title == "") {
				t.Errorf("Discarded = %v but title = %q", c.Discarded, c.Structured.Title)
			}
			if !c.Discarded && c.Structured.Overview == "" {
				t.Error("kept conversation has no overview")
			}
			if c.Structured.Emoji == "" {
				t.Error("empty emoji")
			}
		})
	}
}

func TestProcessShouldDiscardErrorFailsOpen(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelWarn}))
	fake := &fakeExtractor{
		t: t,
		shouldDiscard: func(context.Context, appliance.TranscriptInput) (bool, error) {
			return true, errors.New("model timeout")
		},
		structure: titled("Plumber Visit"),
	}
	c := conversation(appliance.SourceOmi, "call the plumber")
	if _, err := New(fake, logger).Process(context.Background(), c, Options{}); err != nil {
		t.Fatal(err)
	}
	if c.Discarded || c.Structured.Title != "Plumber Visit" || fake.structCalls.Load() != 1 {
		t.Errorf("got discarded=%v title=%q structure calls=%d; want kept and structured",
			c.Discarded, c.Structured.Title, fake.structCalls.Load())
	}
	var rec map[string]any
	if err := json.Unmarshal(logs.Bytes(), &rec); err != nil {
		t.Fatalf("want one JSON log line, got %q: %v", logs.String(), err)
	}
	if rec["level"] != "WARN" || rec["err"] != "model timeout" {
		t.Errorf("log = %v, want level WARN and err \"model timeout\"", rec)
	}
	if strings.Contains(logs.String(), "plumber") {
		t.Error("log leaks transcript text")
	}
}

func TestProcessStructureErrorLeavesConversation(t *testing.T) {
	t.Parallel()
	boom := errors.New("model unavailable")
	fake := &fakeExtractor{
		t:             t,
		shouldDiscard: neverDiscard,
		structure: func(context.Context, appliance.TranscriptInput) (appliance.Structured, error) {
			return appliance.Structured{Title: "partial"}, boom
		},
	}
	c := conversation(appliance.SourceOmi, "call the plumber about the leak")
	before := *c
	before.TranscriptSegments = append([]appliance.TranscriptSegment(nil), c.TranscriptSegments...)
	_, err := New(fake, nil).Process(context.Background(), c, Options{})
	if !errors.Is(err, boom) || !strings.HasPrefix(err.Error(), "structure conversation: ") {
		t.Fatalf("err = %v, want wrapped %v", err, boom)
	}
	if d := cmp.Diff(&before, c); d != "" {
		t.Errorf("conversation changed on error (-before +after):\n%s", d)
	}
}

func TestProcessNormalizesStructure(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 3, 5, 9, 0, 0, 0, time.UTC)
	raw := appliance.Structured{
		Title:    "  Plumber Visit ",
		Overview: "Fix the leak.",
		Category: "plumbing", // not a category
		Events: []appliance.Event{
			{Title: "unset", Start: start, Duration: 0, Created: true},
			{Title: "negative", Start: start, Duration: -5},
			{Title: "long", Start: start, Duration: 600, Created: true},
			{Title: "ok", Start: start, Duration: 45},
		},
	}
	fake := &fakeExtractor{t: t, shouldDiscard: neverDiscard,
		structure: func(context.Context, appliance.TranscriptInput) (appliance.Structured, error) { return raw, nil }}
	c := conversation(appliance.SourceOmi, "call the plumber about the leak")
	if _, err := New(fake, nil).Process(context.Background(), c, Options{}); err != nil {
		t.Fatal(err)
	}
	want := appliance.Structured{
		Title:       "Plumber Visit",
		Overview:    "Fix the leak.",
		Emoji:       appliance.DefaultEmoji,
		Category:    appliance.CategoryOther,
		ActionItems: []appliance.ActionItem{},
		Events: []appliance.Event{
			{Title: "unset", Start: start, Duration: 30},
			{Title: "negative", Start: start, Duration: 30},
			{Title: "long", Start: start, Duration: 180},
			{Title: "ok", Start: start, Duration: 45},
		},
	}
	if d := cmp.Diff(want, c.Structured); d != "" {
		t.Errorf("structured (-want +got):\n%s", d)
	}
	if raw.Events[0].Duration != 0 || !raw.Events[0].Created {
		t.Error("normalisation mutated the extractor's events")
	}
	if c.Discarded {
		t.Error("a titled conversation was marked discarded")
	}
}

func TestProcessEmptyTitleCountsAsDiscarded(t *testing.T) {
	t.Parallel()
	fake := &fakeExtractor{t: t, shouldDiscard: neverDiscard, structure: titled("")}
	c := conversation(appliance.SourceOmi, "call the plumber about the leak")
	if _, err := New(fake, nil).Process(context.Background(), c, Options{}); err != nil {
		t.Fatal(err)
	}
	if !c.Discarded || c.Status != appliance.StatusCompleted {
		t.Errorf("discarded=%v status=%q, want discarded and completed", c.Discarded, c.Status)
	}
}

func TestProcessInput(t *testing.T) {
	t.Parallel()
	started := time.Date(2026, 3, 4, 9, 30, 0, 0, time.UTC)
	finished := started.Add(90 * time.Second)
	berlin := time.FixedZone("CET", 3600)
	tests := []struct {
		name        string
		startedAt   *time.Time
		finishedAt  *time.Time
		opt         Options
		wantStart   time.Time
		wantDur     time.Duration
		wantLocName string
	}{
		{"started at", &started, &finished, Options{Location: berlin, UserName: "Ana"}, started, 90 * time.Second, "CET"},
		{"created at fallback", nil, &finished, Options{}, created, 0, time.Local.String()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var got appliance.TranscriptInput
			fake := &fakeExtractor{t: t,
				shouldDiscard: func(_ context.Context, in appliance.TranscriptInput) (bool, error) { got = in; return false, nil },
				structure:     titled("Plumber Visit"),
			}
			c := conversation(appliance.SourcePhone, "call the plumber about the leak")
			c.Language = "en"
			c.StartedAt, c.FinishedAt = tt.startedAt, tt.finishedAt
			if _, err := New(fake, nil).Process(context.Background(), c, tt.opt); err != nil {
				t.Fatal(err)
			}
			if !got.StartedAt.Equal(tt.wantStart) || got.Duration != tt.wantDur || got.Location.String() != tt.wantLocName ||
				got.UserName != tt.opt.UserName || got.Source != appliance.SourcePhone || got.Language != "en" {
				t.Errorf("input = {start %v dur %v loc %v user %q source %q lang %q}", got.StartedAt, got.Duration,
					got.Location, got.UserName, got.Source, got.Language)
			}
			if d := cmp.Diff(c.TranscriptSegments, got.Segments); d != "" {
				t.Errorf("segments (-conversation +input):\n%s", d)
			}
		})
	}
}

func TestProcessDiscardEmojiIsDeterministic(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for i := range 32 {
		id := fmt.Sprintf("0b6f%04x-3c1e-4f5a-9d2e-%012x", i, i*7919)
		a, b := discardedStructure(id), discardedStructure(id)
		if a.Emoji != b.Emoji {
			t.Fatalf("id %q: emoji %q then %q", id, a.Emoji, b.Emoji)
		}
		seen[a.Emoji] = true
	}
	if !seen["🧠"] || !seen["🎉"] || len(seen) != 2 {
		t.Errorf("emojis seen = %v, want both 🧠 and 🎉", seen)
	}
}

func TestProcessErrors(t *testing.T) {
	t.Parallel()
	p := New(&fakeExtractor{t: t}, nil)
	if _, err := p.Process(context.Background(), nil, Options{}); err == nil {
		t.Error("nil conversation: want error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	c := conversation(appliance.SourceOmi, "call the plumber")
	if _, err := p.Process(ctx, c, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled context: err = %v, want context.Canceled", err)
	}
	if c.Status != appliance.StatusProcessing {
		t.Errorf("canceled context changed status to %q", c.Status)
	}
}

func TestProcessPhotoDescriptionIsNotEmpty(t *testing.T) {
	t.Parallel()
	fake := &fakeExtractor{t: t, shouldDiscard: neverDiscard, structure: titled("Whiteboard Sketch")}
	c := conversation(appliance.SourceOpenglass)
	c.Photos = []appliance.Photo{{ID: "p1", Description: "a whiteboard with a system diagram"}}
	if _, err := New(fake, nil).Process(context.Background(), c, Options{}); err != nil {
		t.Fatal(err)
	}
	if fake.discardCalls.Load() != 1 || c.Discarded {
		t.Errorf("asked=%d discarded=%v; want the extractor to decide and keep", fake.discardCalls.Load(), c.Discarded)
	}
}

func TestProcess_ForcedKeepNeverEndsDiscarded(t *testing.T) {
	t.Parallel()
	p := New(NewBuiltin(), nil)
	for name, tc := range map[string]struct {
		source appliance.ConversationSource
		force  bool
	}{
		"TextIntegration": {appliance.SourceWorkflow, false},
		"ForceProcess":    {appliance.SourceOmi, true},
	} {
		t.Run(name, func(t *testing.T) {
			c := &appliance.Conversation{ID: "c", Source: tc.source, CreatedAt: time.Now(),
				TranscriptSegments: []appliance.TranscriptSegment{{Text: "okay, hmm.", Start: 0, End: 1}}}
			if _, err := p.Process(context.Background(), c, Options{ForceProcess: tc.force}); err != nil {
				t.Fatal(err)
			}
			if c.Discarded || c.Structured.Title != "Okay Hmm" || c.Structured.Overview != "okay, hmm." {
				t.Fatalf("discarded=%v title=%q; want kept with the utterance as title", c.Discarded, c.Structured.Title)
			}
		})
	}
}

func TestProcess_Memories(t *testing.T) {
	t.Parallel()
	kept := func() *appliance.Conversation {
		return conversation(appliance.SourceOmi, "I need to call the dentist tomorrow about my appointment")
	}
	structure := func(context.Context, appliance.TranscriptInput) (appliance.Structured, error) {
		return appliance.Structured{Title: "Dentist Call", Overview: "A call."}, nil
	}
	t.Run("CappedCleanedAndCategorised", func(t *testing.T) {
		fake := &fakeExtractor{t: t, shouldDiscard: neverDiscard, structure: structure,
			memories: func(context.Context, appliance.TranscriptInput) ([]appliance.Memory, error) {
				return []appliance.Memory{{Content: "  "}, {Content: " Has a dentist ", Category: "system"},
					{Content: "Floss daily", Category: "learnings"}, {Content: "third", Category: "system"}}, nil
			}}
		res, err := New(fake, nil).Process(context.Background(), kept(), Options{})
		if err != nil {
			t.Fatal(err)
		}
		want := []appliance.Memory{{Content: "Has a dentist", Category: "system"}, {Content: "Floss daily", Category: "interesting"}}
		if diff := cmp.Diff(want, res.Memories); diff != "" {
			t.Fatalf("memories (-want +got):\n%s", diff)
		}
	})
	t.Run("FailureKeepsTheConversation", func(t *testing.T) {
		fake := &fakeExtractor{t: t, shouldDiscard: neverDiscard, structure: structure,
			memories: func(context.Context, appliance.TranscriptInput) ([]appliance.Memory, error) {
				return nil, errors.New("boom")
			}}
		c := kept()
		res, err := New(fake, nil).Process(context.Background(), c, Options{})
		if err != nil || len(res.Memories) != 0 || c.Discarded || c.Status != appliance.StatusCompleted {
			t.Fatalf("err=%v memories=%v conversation=%+v", err, res.Memories, c)
		}
	})
	t.Run("DiscardedGetsNone", func(t *testing.T) {
		called := false
		fake := &fakeExtractor{t: t, shouldDiscard: neverDiscard, structure: structure,
			memories: func(context.Context, appliance.TranscriptInput) ([]appliance.Memory, error) {
				called = true
				return []appliance.Memory{{Content: "x", Category: "system"}}, nil
			}}
		res, err := New(fake, nil).Process(context.Background(), conversation(appliance.SourceOmi, "okay"), Options{})
		if err != nil || len(res.Memories) != 0 || called {
			t.Fatalf("discarded conversation: err=%v memories=%v extractor called=%v", err, res.Memories, called)
		}
	})
}

// segments makes one segment of each text, five seconds apart.
func segments(texts ...string) []appliance.TranscriptSegment {
	segs := make([]appliance.TranscriptSegment, len(texts))
	for i, t := range texts {
		segs[i] = appliance.TranscriptSegment{
			ID: "seg" + strings.Repeat("x", i), Text: t, Speaker: appliance.DefaultSpeaker,
			Start: float64(i * 5), End: float64(i*5 + 5),
		}
	}
	return segs
}

// budgetMeeting is a meeting the built-in extractor keeps and titles.
var budgetMeeting = []string{
	"Okay everyone, let's start the quarterly budget review.",
	"Revenue is up eight percent this quarter, but marketing spend went over budget again.",
	"We need to cut the travel budget for next quarter and renegotiate two vendor contracts.",
	"The hiring plan depends on the budget review too. We want two engineers and one designer.",
	"Sarah, can you send the revised budget numbers and the hiring plan by Friday?",
}

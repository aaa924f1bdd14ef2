package llm

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // the test zone must exist on minimal machines too

	"github.com/google/go-cmp/cmp"

	"github.com/hearth-appliance/hearth/appliance"
)

func laZone(t *testing.T) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation("America/Los_Angeles")
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// testInput is a conversation that started 2026-03-14 15:00 in Los Angeles
// (UTC−7, daylight time) between the user, Sam, and Speaker 1.
func testInput(t *testing.T) appliance.TranscriptInput {
	t.Helper()
	loc := laZone(t)
	return appliance.TranscriptInput{
		Segments: []appliance.TranscriptSegment{
			{Text: "We should plan the spring garden layout TRANSCRIPT-MARKER.", IsUser: true, SpeakerID: 0},
			{Text: "  ", SpeakerID: 1},
			{Text: "Buy the seeds tomorrow morning, and send me the plan Monday evening.", SpeakerID: 1},
		},
		Language:  "en",
		Source:    appliance.SourceOmi,
		StartedAt: time.Date(2026, 3, 14, 15, 0, 0, 0, loc),
		Duration:  10 * time.Minute,
		Location:  loc,
		UserName:  "Sam",
	}
}

// newTestExtractor wires an extractor to the fake with a pinned clock:
// 2026-03-15 05:30 UTC is still March 14 in Los Angeles.
func newTestExtractor(t *testing.T, f *fakeServer, cfg Config, fb appliance.Extractor, logs *logBuffer) *Extractor {
	t.Helper()
	var lc *logBuffer
	if logs != nil {
		lc = logs
	} else {
		lc = &logBuffer{}
	}
	c, _ := newTestClient(t, f, cfg, lc.logger())
	ex := NewExtractor(c, fb, lc.logger())
	ex.now = func() time.Time { return time.Date(2026, 3, 15, 5, 30, 0, 0, time.UTC) }
	return ex
}

func TestExtractorName(t *testing.T) {
	t.Parallel()
	f := newFake(t, "", replies(fakeReply{}))
	ex := newTestExtractor(t, f, Config{Model: "qwen2.5:7b"}, nil, nil)
	if got := ex.Name(); got != "llm:qwen2.5:7b" {
		t.Errorf("Name = %q", got)
	}
}

func TestStructureHappyPath(t *testing.T) {
	t.Parallel()
	reply := map[string]any{
		"overview": "  Sam and a friend planned the spring garden.  ",
		"title":    "planning the spring garden layout and the irrigation system for the new house.",
		"emoji":    "🌱",
		"category": "Gardening",
		"action_items": []any{
			map[string]any{"description": "Buy seeds", "due_at": "2026-03-15T09:00:00-07:00"},
			map[string]any{"description": "Call the plumber", "due_at": nil},
			map[string]any{"description": "Send Speaker 1 the plan", "due_at": "2026-03-16T18:00:00"},
			map[string]any{"description": "buy seeds", "due_at": nil},
			map[string]any{"description": "Renew the 2020 permit", "due_at": "2020-01-01T09:00:00Z"},
			map[string]any{"description": "Order mulch", "due_at": "2026-03-20"},
			map[string]any{"description": "  ", "due_at": nil},
		},
		"events": []any{
			map[string]any{"title": "Garden center visit", "description": "Pick seeds", "start": "2026-03-15T10:00:00-07:00", "duration": 500},
			map[string]any{"title": "Landscaper call", "description": "", "start": "2026-03-16T14:00:00-07:00", "duration": 0},
			map[string]any{"title": "Vague", "description": "", "start": "next Tuesday", "duration": 60},
			map[string]any{"title": "No time", "description": "", "start": "2026-03-20", "duration": 60},
			map[string]any{"title": "Coffee", "description": "", "start": "2026-03-17T08:00:00Z", "duration": 45.4},
		},
	}
	f := newFake(t, "", replies(fakeReply{content: mustJSON(t, reply)}))
	fb := &fakeExtractor{}
	ex := newTestExtractor(t, f, Config{}, fb, nil)

	got, err := ex.Structure(context.Background(), testInput(t))
	if err != nil {
		t.Fatalf("Structure: %v", err)
	}
	utc := func(s string) *time.Time {
		tm, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return &tm
	}
	want := appliance.Structured{
		Title:    "Planning the Spring Garden Layout and the Irrigation System For",
		Overview: "Sam and a friend planned the spring garden.",
		Emoji:    "🌱",
		Category: appliance.CategoryOther,
		ActionItems: []appliance.ActionItem{
			{Description: "Buy seeds", DueAt: utc("2026-03-15T16:00:00Z")},
			{Description: "Call the plumber"},
			// No offset: read in the user's zone (PDT, UTC−7).
			{Description: "Send Speaker 1 the plan", DueAt: utc("2026-03-17T01:00:00Z")},
			// More than a day before the conversation: due date cleared.
			{Description: "Renew the 2020 permit"},
			// A bare date is end of that day in the user's zone.
			{Description: "Order mulch", DueAt: utc("2026-03-21T06:59:00Z")},
		},
		Events: []appliance.Event{
			{Title: "Garden center visit", Description: "Pick seeds", Start: *utc("2026-03-15T17:00:00Z"), Duration: 180},
			{Title: "Landscaper call", Start: *utc("2026-03-16T21:00:00Z"), Duration: 30},
			{Title: "Coffee", Start: *utc("2026-03-17T08:00:00Z"), Duration: 45},
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("structure (-want +got):\n%s", diff)
	}
	for _, a := range got.ActionItems {
		if a.DueAt != nil && a.DueAt.Location() != time.UTC {
			t.Errorf("due_at %v is not UTC", a.DueAt)
		}
	}
	for _, e := range got.Events {
		if e.Created || e.Start.Location() != time.UTC {
			t.Errorf("event %+v: created or not UTC", e)
		}
	}
	if len(strings.Fields(got.Title)) > 10 {
		t.Errorf("title has more than 10 words: %q", got.Title)
	}
	if calls := fb.Calls(); len(calls) != 0 {
		t.Errorf("fallback called: %v", calls)
	}

	req := f.requests()[0]
	if n := req.Body["response_format"].(map[string]any)["json_schema"].(map[string]any)["name"]; n != "conversation_structure" {
		t.Errorf("schema name = %v", n)
	}
	user := lastUserMessage(req.Body)
	if miss, ok := contains(user,
		"Sam: We should plan the spring garden layout",
		"\n\nSpeaker 1: Buy the seeds tomorrow morning",
		"Conversation started: Saturday, 2026-03-14T15:00:00-07:00",
		"User's time zone: America/Los_Angeles",
		"Today's date: Saturday, 2026-03-14",
		`Language: the language "en"`,
	); !ok {
		t.Errorf("user message lacks %q:\n%s", miss, user)
	}
	if strings.Contains(user, "Speaker 1:  \n") || strings.Count(user, "Speaker 1:") != 1 {
		t.Errorf("blank segment rendered:\n%s", user)
	}
	if miss, ok := contains(systemMessage(req.Body), "10 words or fewer", "Title Case", "23:59", `the language "en"`); !ok {
		t.Errorf("system prompt lacks %q", miss)
	}
}

func TestConvertStructureCoercions(t *testing.T) {
	t.Parallel()
	in := testInput(t)
	var r structureReply
	r.Title = `"déjà vu at the café"`
	r.Category = " Family "
	r.Emoji = "rocket"
	got := convertStructure(r, in, time.Now())
	if got.Category != "family" {
		t.Errorf("category = %q, want family", got.Category)
	}
	if got.Emoji != appliance.DefaultEmoji {
		t.Errorf("emoji = %q, want default", got.Emoji)
	}
	if got.Title != "Déjà Vu at the Café" {
		t.Errorf("title = %q", got.Title)
	}
	if got.ActionItems == nil || got.Events == nil {
		t.Error("lists must be non-nil")
	}
	for title, want := range map[string]string{"✈️ flight to Lisbon": "Flight to Lisbon", "Garden Fence 🏡 and Layover": "Garden Fence and Layover",
		"👩‍💻 code review": "Code Review"} {
		r.Title = title
		if got := convertStructure(r, in, time.Now()).Title; got != want {
			t.Errorf("title %q = %q, want %q", title, got, want)
		}
	}
	in.Language = "fr"
	r.Title = "réunion de l'équipe"
	if got := convertStructure(r, in, time.Now()); got.Title != "Réunion de l'équipe" {
		t.Errorf("non-English title = %q", got.Title)
	}
	for emoji, want := range map[string]string{"🎉 party": "🎉", ":)": appliance.DefaultEmoji, "": appliance.DefaultEmoji, "👩‍💻": "👩‍💻"} {
		if got := cleanEmoji(emoji); got != want {
			t.Errorf("cleanEmoji(%q) = %q, want %q", emoji, got, want)
		}
	}
}

func TestShouldDiscard(t *testing.T) {
	t.Parallel()
	f := newFake(t, "", replies(fakeReply{content: `{"discard":true}`}, fakeReply{content: `{"discard":false}`}))
	ex := newTestExtractor(t, f, Config{}, &fakeExtractor{}, nil)

	short := testInput(t)
	short.Duration = 30 * time.Second
	got, err := ex.ShouldDiscard(context.Background(), short)
	if err != nil || !got {
		t.Fatalf("ShouldDiscard(short) = %v, %v; want true", got, err)
	}
	got, err = ex.ShouldDiscard(context.Background(), testInput(t))
	if err != nil || got {
		t.Fatalf("ShouldDiscard(long) = %v, %v; want false", got, err)
	}
	reqs := f.requests()
	if miss, ok := contains(systemMessage(reqs[0].Body), "KEEP", "DISCARD", "shorter than two minutes"); !ok {
		t.Errorf("short prompt lacks %q", miss)
	}
	if strings.Contains(systemMessage(reqs[1].Body), "shorter than two minutes") {
		t.Error("ten-minute recording got the stricter bar")
	}
}

func TestMemoriesCappedAndCoerced(t *testing.T) {
	t.Parallel()
	reply := `{"memories":[
		{"content":"  ","category":"system"},
		{"content":"Sam is redesigning the garden this spring.","category":"system"},
		{"content":"Speaker 1 recommends buying seeds early.","category":"workflow"},
		{"content":"A third one that must be dropped.","category":"system"}]}`
	f := newFake(t, "", replies(fakeReply{content: reply}))
	ex := newTestExtractor(t, f, Config{}, &fakeExtractor{}, nil)
	got, err := ex.Memories(context.Background(), testInput(t))
	if err != nil {
		t.Fatalf("Memories: %v", err)
	}
	want := []appliance.Memory{
		{Content: "Sam is redesigning the garden this spring.", Category: appliance.MemorySystem},
		{Content: "Speaker 1 recommends buying seeds early.", Category: appliance.MemoryInteresting},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("memories (-want +got):\n%s", diff)
	}
	if len(got) > appliance.MaxMemoriesPerConversation {
		t.Errorf("%d memories", len(got))
	}
	if sys := systemMessage(f.requests()[0].Body); !strings.Contains(sys, "fact about Sam") {
		t.Errorf("memories prompt does not name the user:\n%s", sys)
	}
}

func TestMemoriesSkipShortTranscript(t *testing.T) {
	t.Parallel()
	f := newFake(t, "", replies(fakeReply{content: `{"memories":[]}`}))
	ex := newTestExtractor(t, f, Config{}, &fakeExtractor{}, nil)
	in := testInput(t)
	in.Segments = []appliance.TranscriptSegment{{Text: "Okay, see you.", IsUser: true}}
	got, err := ex.Memories(context.Background(), in)
	if err != nil || len(got) != 0 || got == nil {
		t.Fatalf("Memories = %#v, %v; want empty, nil", got, err)
	}
	if n := len(f.requests()); n != 0 {
		t.Errorf("requests = %d, want 0", n)
	}
}

func TestFallbackOnFailure(t *testing.T) {
	t.Parallel()
	cases := map[string]struct {
		rep fakeReply
		cfg Config
	}{
		"timeout":         {fakeReply{hang: time.Minute}, Config{Timeout: 50 * time.Millisecond, MaxRetries: 1}},
		"malformed":       {fakeReply{content: `{"title": 42}`}, Config{}},
		"non-JSON body":   {fakeReply{body: "Internal Server Error"}, Config{}},
		"server error":    {fakeReply{status: 500}, Config{MaxRetries: 2}},
		"client error":    {fakeReply{status: 404}, Config{}},
		"rate limited":    {fakeReply{status: 429, header: map[string]string{"Retry-After": "600"}}, Config{}},
		"wrong JSON type": {fakeReply{content: `[]`}, Config{}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			const key = "sk-fallback-secret"
			f := newFake(t, key, replies(tc.rep))
			fb := &fakeExtractor{}
			logs := &logBuffer{}
			tc.cfg.APIKey = key
			ex := newTestExtractor(t, f, tc.cfg, fb, logs)
			ctx := context.Background()
			in := testInput(t)

			s, err := ex.Structure(ctx, in)
			if err != nil || s.Title != "Fallback Title" {
				t.Errorf("Structure = %q, %v; want the fallback's", s.Title, err)
			}
			d, err := ex.ShouldDiscard(ctx, in)
			if err != nil || d {
				t.Errorf("ShouldDiscard = %v, %v; want the fallback's false", d, err)
			}
			m, err := ex.Memories(ctx, in)
			if err != nil || len(m) != 1 || m[0].Content != "fallback memory" {
				t.Errorf("Memories = %v, %v; want the fallback's", m, err)
			}
			if diff := cmp.Diff([]string{"structure", "discard", "memories"}, fb.Calls()); diff != "" {
				t.Errorf("fallback calls (-want +got):\n%s", diff)
			}
			out := logs.String()
			if !strings.Contains(out, `"level":"WARN"`) || !strings.Contains(out, "using fallback") {
				t.Errorf("no warning logged:\n%s", out)
			}
			for _, secret := range []string{key, "TRANSCRIPT-MARKER", "spring garden"} {
				if strings.Contains(out, secret) {
					t.Errorf("logs contain %q:\n%s", secret, out)
				}
			}
		})
	}
}

func TestParentCancelledIsAnErrorNotFallback(t *testing.T) {
	t.Parallel()
	f := newFake(t, "", replies(fakeReply{hang: time.Minute}))
	fb := &fakeExtractor{}
	ex := newTestExtractor(t, f, Config{Timeout: time.Minute}, fb, nil)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	_, err := ex.Structure(ctx, testInput(t))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if calls := fb.Calls(); len(calls) != 0 {
		t.Errorf("fallback called after cancellation: %v", calls)
	}
	// Already cancelled before the call: same.
	if _, err := ex.ShouldDiscard(ctx, testInput(t)); !errors.Is(err, context.Canceled) {
		t.Errorf("ShouldDiscard err = %v", err)
	}
	if calls := fb.Calls(); len(calls) != 0 {
		t.Errorf("fallback called after cancellation: %v", calls)
	}
}

func TestParentDeadlineFallsBack(t *testing.T) {
	t.Parallel()
	f := newFake(t, "", replies(fakeReply{hang: time.Minute}))
	fb := &fakeExtractor{}
	ex := newTestExtractor(t, f, Config{Timeout: time.Minute}, fb, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	// The fake fallback fails on a done context, so success proves it got a
	// live one.
	s, err := ex.Structure(ctx, testInput(t))
	if err != nil || s.Title != "Fallback Title" {
		t.Fatalf("Structure = %q, %v; want the fallback's", s.Title, err)
	}
}

func TestNilFallbackReturnsError(t *testing.T) {
	t.Parallel()
	f := newFake(t, "", replies(fakeReply{content: "nope"}))
	ex := newTestExtractor(t, f, Config{}, nil, nil)
	in := testInput(t)
	if _, err := ex.Structure(context.Background(), in); !errors.Is(err, ErrMalformedReply) ||
		!strings.HasPrefix(err.Error(), "llm structure: chat completion: ") {
		t.Errorf("Structure err = %v", err)
	}
	if _, err := ex.ShouldDiscard(context.Background(), in); !errors.Is(err, ErrMalformedReply) {
		t.Errorf("ShouldDiscard err = %v", err)
	}
	if _, err := ex.Memories(context.Background(), in); !errors.Is(err, ErrMalformedReply) {
		t.Errorf("Memories err = %v", err)
	}
}

func TestFallbackErrorIsReturned(t *testing.T) {
	t.Parallel()
	f := newFake(t, "", replies(fakeReply{status: 400}))
	boom := errors.New("fallback broke")
	fb := &fakeExtractor{structure: func(context.Context, appliance.TranscriptInput) (appliance.Structured, error) {
		return appliance.Structured{}, boom
	}}
	ex := newTestExtractor(t, f, Config{}, fb, nil)
	if _, err := ex.Structure(context.Background(), testInput(t)); !errors.Is(err, boom) {
		t.Errorf("err = %v, want the fallback's", err)
	}
}

func TestTranslate(t *testing.T) {
	t.Parallel()
	f := newFake(t, "", replies(fakeReply{content: `{"translation":" Hallo Welt "}`}))
	ex := newTestExtractor(t, f, Config{}, &fakeExtractor{}, nil)
	got, err := ex.Translate(context.Background(), "Hello world", "German")
	if err != nil || got != "Hallo Welt" {
		t.Fatalf("Translate = %q, %v", got, err)
	}
	req := f.requests()[0]
	if lastUserMessage(req.Body) != "Hello world" || !strings.Contains(systemMessage(req.Body), `"German"`) {
		t.Errorf("prompt: system %q user %q", systemMessage(req.Body), lastUserMessage(req.Body))
	}
	if _, err := ex.Translate(context.Background(), "Hello", " "); err == nil {
		t.Error("empty target language accepted")
	}
	if got, err := ex.Translate(context.Background(), "", "German"); err != nil || got != "" {
		t.Errorf("empty text = %q, %v", got, err)
	}
	if n := len(f.requests()); n != 1 {
		t.Errorf("requests = %d, want 1", n)
	}
}

func TestTranslateFailureHasNoFallback(t *testing.T) {
	t.Parallel()
	f := newFake(t, "", replies(fakeReply{status: 503}))
	fb := &fakeExtractor{}
	ex := newTestExtractor(t, f, Config{MaxRetries: -1}, fb, nil)
	_, err := ex.Translate(context.Background(), "Hello", "de")
	var se *StatusError
	if !errors.As(err, &se) || se.Status != 503 || !strings.HasPrefix(err.Error(), "llm translate: ") {
		t.Errorf("err = %v", err)
	}
	if len(fb.Calls()) != 0 {
		t.Errorf("fallback called: %v", fb.Calls())
	}
}

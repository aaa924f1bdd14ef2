package builtin_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/pipeline"
	"github.com/hearth-appliance/hearth/appliance/pipeline/builtin"
)

// The quality corpus (testdata/corpus/*.json) holds realistic transcripts
// with what a careful person would extract from them. TestQualityCorpus
// runs each through Pipeline.Process with the built-in extractor and scores
// the result; the floors below are the measured figures minus a small
// margin (docs/benchmarks.md records the measurements), never below the
// targets of the issue that introduced the corpus.
const (
	floorActionPrecision = 0.92 // measured 0.953 (61/64); target 0.8
	floorActionRecall    = 0.84 // measured 0.871 (61/70); target 0.8
	floorEventAccuracy   = 0.80 // measured 0.828 (24/29); target 0.8 (expected events found with the right start)
	floorEventPrecision  = 0.88 // measured 0.923 (24/26)
	floorDiscardAccuracy = 0.96 // measured 0.989 (86/87); target 0.9
	floorCategory        = 0.90 // measured 0.940 (63/67); no target
	floorMemoryPrecision = 0.95 // measured 1.000 (14/14)
	floorMemoryRecall    = 0.83 // measured 0.875 (14/16)
	minCorpusEntries     = 40

	// The corpus without punctuation or capitals (TestQualityCorpusUnpunctuated);
	// before run-on clauses and clause-bound due dates it measured 0.785
	// (51/65), 0.689 (51/74), 0.788 (26/33) and 0.812 (26/32); before the
	// time grammar and "please remind me to…" (issue 31) 0.855 (59/69),
	// 0.797 (59/74), 0.848 (28/33) and 0.848 (28/33).
	floorRunOnActionPrecision = 0.82 // measured 0.871 (61/70)
	floorRunOnActionRecall    = 0.76 // measured 0.824 (61/74)
	floorRunOnEventAccuracy   = 0.80 // measured 0.848 (28/33)
	floorRunOnEventPrecision  = 0.80 // measured 0.824 (28/34)
)

type corpusEntry struct {
	Name string `json:"name"`
	Kind string `json:"kind"`
	// Split says when a transcript was written: "" together with the
	// heuristics; "round2" after their first version, with phrasings they
	// were not designed for (its misses then drove one round of general
	// fixes); "plans" for dated plans that are also action items, used to
	// tune that change; "holdout" after a round, never used to tune anything.
	Split     string    `json:"split"`
	StartedAt time.Time `json:"started_at"`
	TimeZone  string    `json:"time_zone"`
	Language  string    `json:"language"`
	Source    string    `json:"source"`
	Segments  []struct {
		Text    string  `json:"text"`
		Speaker string  `json:"speaker"`
		IsUser  bool    `json:"is_user"`
		Start   float64 `json:"start"`
		End     float64 `json:"end"`
	} `json:"segments"`

	Discard          bool              `json:"discard"`
	Category         categoryList      `json:"category"`
	ActionItems      []expectedItem    `json:"action_items"`
	AcceptableItems  []expectedItem    `json:"acceptable_action_items"`
	Events           []expectedEvent   `json:"events"`
	AcceptableEvents []expectedEvent   `json:"acceptable_events"`
	Memories         *[]expectedMemory `json:"memories"` // nil: memories not scored
	Extra            map[string]any    `json:"-"`
	file             string
}

// categoryList accepts one category or a list of acceptable ones.
type categoryList []appliance.Category

func (c *categoryList) UnmarshalJSON(b []byte) error {
	var one string
	if json.Unmarshal(b, &one) == nil {
		*c = categoryList{appliance.Category(one)}
		return nil
	}
	var many []appliance.Category
	if err := json.Unmarshal(b, &many); err != nil {
		return err
	}
	*c = many
	return nil
}

type expectedItem struct {
	Match        []string   `json:"match"`
	Due          *time.Time `json:"due"`
	DueTolerance int        `json:"due_tolerance_minutes"`
}

type expectedEvent struct {
	Match          []string  `json:"match"`
	Start          time.Time `json:"start"`
	StartTolerance int       `json:"start_tolerance_minutes"`
}

type expectedMemory struct {
	Match    []string `json:"match"`
	Category string   `json:"category"`
}

func loadCorpus(t *testing.T) []corpusEntry {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "corpus", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	var out []corpusEntry
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var e corpusEntry
		dec := json.NewDecoder(strings.NewReader(string(b)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&e); err != nil {
			// notes are free text; allow them without a struct field
			var loose map[string]json.RawMessage
			if json.Unmarshal(b, &loose) != nil || !onlyNotesUnknown(loose) {
				t.Fatalf("%s: %v", f, err)
			}
			if err := json.Unmarshal(b, &e); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
		}
		e.file = filepath.Base(f)
		if e.StartedAt.IsZero() || e.TimeZone == "" || len(e.Segments) == 0 {
			t.Fatalf("%s: started_at, time_zone and segments are required", f)
		}
		out = append(out, e)
	}
	return out
}

func onlyNotesUnknown(m map[string]json.RawMessage) bool {
	known := map[string]bool{"name": true, "kind": true, "started_at": true, "time_zone": true, "language": true,
		"source": true, "segments": true, "discard": true, "category": true, "action_items": true,
		"acceptable_action_items": true, "events": true, "acceptable_events": true, "memories": true, "notes": true, "split": true}
	for k := range m {
		if !known[k] {
			return false
		}
	}
	return true
}

func (e *corpusEntry) conversation(t *testing.T) (*appliance.Conversation, *time.Location) {
	t.Helper()
	loc, err := time.LoadLocation(e.TimeZone)
	if err != nil {
		t.Fatalf("%s: %v", e.file, err)
	}
	started := e.StartedAt
	segs := make([]appliance.TranscriptSegment, len(e.Segments))
	for i, s := range e.Segments {
		segs[i] = appliance.TranscriptSegment{
			ID: fmt.Sprintf("s%d", i), Text: s.Text, Speaker: s.Speaker, SpeakerID: appliance.SpeakerIDFromLabel(s.Speaker),
			IsUser: s.IsUser, Start: s.Start, End: s.End,
		}
	}
	finished := started.Add(time.Duration(e.Segments[len(e.Segments)-1].End * float64(time.Second)))
	return &appliance.Conversation{
		ID: e.Name, Source: appliance.ParseConversationSource(e.Source), Language: e.Language,
		CreatedAt: started, StartedAt: &started, FinishedAt: &finished, TranscriptSegments: segs,
	}, loc
}

func containsAll(text string, keywords []string) bool {
	text = strings.ToLower(text)
	for _, k := range keywords {
		if !strings.Contains(text, strings.ToLower(k)) {
			return false
		}
	}
	return true
}

func withinMinutes(a, b time.Time, tol int) bool {
	d := a.Sub(b)
	if d < 0 {
		d = -d
	}
	return d <= time.Duration(tol)*time.Minute
}

func (x expectedItem) matches(it appliance.ActionItem) bool {
	if !containsAll(it.Description, x.Match) {
		return false
	}
	switch {
	case x.Due == nil || it.DueAt == nil:
		return x.Due == nil && it.DueAt == nil
	default:
		return withinMinutes(*it.DueAt, *x.Due, max(x.DueTolerance, 1))
	}
}

func (x expectedEvent) matches(ev appliance.Event) bool {
	return containsAll(ev.Title+" "+ev.Description, x.Match) && withinMinutes(ev.Start, x.Start, max(x.StartTolerance, 1))
}

// score tallies the corpus.
type score struct {
	entries, english                 int
	discardOK                        int
	catOK, catTotal                  int
	itemsMatched, itemsExtracted     int
	itemsExpected                    int
	eventsFound, eventsExpected      int
	eventsExtracted, eventsGood      int
	memMatched, memExtracted, memExp int
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

func TestQualityCorpus(t *testing.T) {
	t.Parallel()
	all := runCorpus(t, nil)
	for _, r := range all.rows() {
		if r.got < r.floor {
			t.Errorf("%s = %.3f (%s), below the floor %.2f", r.name, r.got, r.of, r.floor)
		}
	}
}

// TestQualityCorpusUnpunctuated runs the corpus as a local recognizer
// would have written it: lowercase words, no punctuation, each segment
// (a stretch between pauses) kept. Its floors are its own measurements
// minus a margin (docs/benchmarks.md).
func TestQualityCorpusUnpunctuated(t *testing.T) {
	t.Parallel()
	all := runCorpus(t, unpunctuated)
	floors := map[string]float64{
		"action-item precision": floorRunOnActionPrecision,
		"action-item recall":    floorRunOnActionRecall,
		"event start accuracy":  floorRunOnEventAccuracy,
		"event precision":       floorRunOnEventPrecision,
	}
	for _, r := range all.rows() {
		if f, ok := floors[r.name]; ok && r.got < f {
			t.Errorf("unpunctuated %s = %.3f (%s), below the floor %.2f", r.name, r.got, r.of, f)
		}
	}
}

// unpunctuated is text as PocketSphinx gives it: "Hi Maria, it's 3:30." →
// "hi maria it's 3:30".
func unpunctuated(text string) string {
	text = builtin.Meridiem.Replace(text)
	var b strings.Builder
	for i, r := range text {
		switch {
		case r == '\'' || r == '’' || r == '-' && i > 0:
			b.WriteRune(r)
		case (r == ':' || r == '.') && builtin.DigitAt(text, i-1) && builtin.DigitAt(text, i+1):
			b.WriteRune(r)
		case unicode.IsPunct(r) || unicode.IsSymbol(r):
			b.WriteByte(' ')
		default:
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// runCorpus scores every corpus entry, its segment texts passed through
// rewrite when that is not nil, logs the tables and returns the totals.
func runCorpus(t *testing.T, rewrite func(string) string) score {
	t.Helper()
	entries := loadCorpus(t)
	if len(entries) < minCorpusEntries {
		t.Fatalf("corpus has %d entries, want at least %d", len(entries), minCorpusEntries)
	}
	p := pipeline.New(builtin.New(), nil)
	var dev, round2, plans, holdout score
	for _, e := range entries {
		sc := &dev
		switch e.Split {
		case "round2":
			sc = &round2
		case "plans":
			sc = &plans
		case "holdout":
			sc = &holdout
		}
		c, loc := e.conversation(t)
		if rewrite != nil {
			for i := range c.TranscriptSegments {
				c.TranscriptSegments[i].Text = rewrite(c.TranscriptSegments[i].Text)
			}
		}
		res, err := p.Process(context.Background(), c, pipeline.Options{Location: loc})
		if err != nil {
			t.Fatalf("%s: %v", e.file, err)
		}
		sc.entries++
		if c.Discarded == e.Discard {
			sc.discardOK++
		} else {
			caseLogf(t, e, "%s: discarded = %v, want %v", e.file, c.Discarded, e.Discard)
		}
		if !c.Discarded && (c.Structured.Title == "" || c.Structured.Overview == "") {
			t.Errorf("%s: kept with title %q, overview %q", e.file, c.Structured.Title, c.Structured.Overview)
		}
		checkStructureInvariants(t, e.file, c.Structured)
		english := e.Language == "en" || e.Language == ""
		if !english {
			continue
		}
		sc.english++
		if len(e.Category) > 0 && !e.Discard {
			sc.catTotal++
			ok := false
			for _, want := range e.Category {
				ok = ok || c.Structured.Category == want
			}
			if ok {
				sc.catOK++
			} else {
				caseLogf(t, e, "%s: category %q, want one of %q", e.file, c.Structured.Category, e.Category)
			}
		}
		sc.scoreItems(t, e, c.Structured.ActionItems, loc)
		sc.scoreEvents(t, e, c.Structured.Events, loc)
		if e.Memories != nil {
			sc.scoreMemories(t, e, res.Memories)
		}
	}
	all := dev.plus(round2).plus(plans).plus(holdout)
	t.Log("\n" + all.table("all", rewrite == nil) + "\n" + dev.table("written with the heuristics", false) + "\n" +
		round2.table("round 2 (written after v1, used for one round of fixes)", false) + "\n" +
		plans.table("dated plans (written for the hardening issue, used to tune it)", false) + "\n" +
		holdout.table("held out (never used for tuning)", false))
	return all
}

type scoreRow struct {
	name  string
	got   float64
	floor float64
	of    string
}

func (sc score) rows() []scoreRow {
	return []scoreRow{
		{"action-item precision", ratio(sc.itemsMatched, sc.itemsExtracted), floorActionPrecision, fmt.Sprintf("%d/%d", sc.itemsMatched, sc.itemsExtracted)},
		{"action-item recall", ratio(sc.itemsMatched, sc.itemsExpected), floorActionRecall, fmt.Sprintf("%d/%d", sc.itemsMatched, sc.itemsExpected)},
		{"event start accuracy", ratio(sc.eventsFound, sc.eventsExpected), floorEventAccuracy, fmt.Sprintf("%d/%d", sc.eventsFound, sc.eventsExpected)},
		{"event precision", ratio(sc.eventsGood, sc.eventsExtracted), floorEventPrecision, fmt.Sprintf("%d/%d", sc.eventsGood, sc.eventsExtracted)},
		{"category accuracy", ratio(sc.catOK, sc.catTotal), floorCategory, fmt.Sprintf("%d/%d", sc.catOK, sc.catTotal)},
		{"discard accuracy", ratio(sc.discardOK, sc.entries), floorDiscardAccuracy, fmt.Sprintf("%d/%d", sc.discardOK, sc.entries)},
		{"memory precision", ratio(sc.memMatched, sc.memExtracted), floorMemoryPrecision, fmt.Sprintf("%d/%d", sc.memMatched, sc.memExtracted)},
		{"memory recall", ratio(sc.memMatched, sc.memExp), floorMemoryRecall, fmt.Sprintf("%d/%d", sc.memMatched, sc.memExp)},
	}
}

func (sc score) table(title string, floors bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "quality corpus, %s: %d transcripts (%d English)\n", title, sc.entries, sc.english)
	fmt.Fprintf(&b, "%-24s %7s %9s", "metric", "value", "count")
	if floors {
		fmt.Fprintf(&b, " %7s", "floor")
	}
	b.WriteByte('\n')
	for _, r := range sc.rows() {
		fmt.Fprintf(&b, "%-24s %7.3f %9s", r.name, r.got, r.of)
		if floors {
			fmt.Fprintf(&b, " %7.2f", r.floor)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func (sc score) plus(o score) score {
	return score{
		entries: sc.entries + o.entries, english: sc.english + o.english, discardOK: sc.discardOK + o.discardOK,
		catOK: sc.catOK + o.catOK, catTotal: sc.catTotal + o.catTotal,
		itemsMatched: sc.itemsMatched + o.itemsMatched, itemsExtracted: sc.itemsExtracted + o.itemsExtracted,
		itemsExpected: sc.itemsExpected + o.itemsExpected,
		eventsFound:   sc.eventsFound + o.eventsFound, eventsExpected: sc.eventsExpected + o.eventsExpected,
		eventsExtracted: sc.eventsExtracted + o.eventsExtracted, eventsGood: sc.eventsGood + o.eventsGood,
		memMatched: sc.memMatched + o.memMatched, memExtracted: sc.memExtracted + o.memExtracted, memExp: sc.memExp + o.memExp,
	}
}

func (sc *score) scoreItems(t *testing.T, e corpusEntry, got []appliance.ActionItem, loc *time.Location) {
	t.Helper()
	used := make([]bool, len(got))
	for _, x := range e.ActionItems {
		sc.itemsExpected++
		found := false
		for k, it := range got {
			if !used[k] && x.matches(it) {
				used[k], found = true, true
				sc.itemsMatched++
				break
			}
		}
		if !found {
			caseLogf(t, e, "%s: missed action item %q due %v", e.file, x.Match, fmtTime(x.Due, loc))
		}
	}
	for k, it := range got {
		if used[k] {
			continue
		}
		acceptable := false
		for _, x := range e.AcceptableItems {
			acceptable = acceptable || x.matches(it)
		}
		if acceptable {
			continue
		}
		sc.itemsExtracted++
		caseLogf(t, e, "%s: unexpected action item %q due %v", e.file, it.Description, fmtTime(it.DueAt, loc))
	}
	sc.itemsExtracted += count(used)
}

func (sc *score) scoreEvents(t *testing.T, e corpusEntry, got []appliance.Event, loc *time.Location) {
	t.Helper()
	used := make([]bool, len(got))
	for _, x := range e.Events {
		sc.eventsExpected++
		found := false
		for k, ev := range got {
			if !used[k] && x.matches(ev) {
				used[k], found = true, true
				sc.eventsFound++
				break
			}
		}
		if !found {
			caseLogf(t, e, "%s: missed event %q at %v", e.file, x.Match, x.Start.In(loc).Format(time.RFC3339))
		}
	}
	for k, ev := range got {
		if used[k] {
			sc.eventsExtracted++
			sc.eventsGood++
			continue
		}
		acceptable := false
		for _, x := range e.AcceptableEvents {
			acceptable = acceptable || x.matches(ev)
		}
		if acceptable {
			continue
		}
		sc.eventsExtracted++
		caseLogf(t, e, "%s: unexpected event %q at %v (%q)", e.file, ev.Title, ev.Start.In(loc).Format(time.RFC3339), ev.Description)
	}
}

func (sc *score) scoreMemories(t *testing.T, e corpusEntry, got []appliance.Memory) {
	t.Helper()
	want := *e.Memories
	sc.memExp += min(len(want), appliance.MaxMemoriesPerConversation)
	used := make([]bool, len(want))
	for _, m := range got {
		sc.memExtracted++
		ok := false
		for k, x := range want {
			if !used[k] && containsAll(m.Content, x.Match) && m.Category == x.Category {
				used[k], ok = true, true
				sc.memMatched++
				break
			}
		}
		if !ok {
			caseLogf(t, e, "%s: unexpected memory %q (%s)", e.file, m.Content, m.Category)
		}
	}
	for k, x := range want {
		if !used[k] {
			caseLogf(t, e, "%s: missed memory %q (%s)", e.file, x.Match, x.Category)
		}
	}
}

func count(bs []bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

func fmtTime(t *time.Time, loc *time.Location) string {
	if t == nil {
		return "none"
	}
	return t.In(loc).Format(time.RFC3339)
}

// checkStructureInvariants: what every structure must satisfy whatever was
// said (shared with the fuzz test).
func checkStructureInvariants(t *testing.T, name string, s appliance.Structured) {
	t.Helper()
	if s.ActionItems == nil || s.Events == nil {
		t.Errorf("%s: nil action items or events", name)
	}
	if len(s.ActionItems) > builtin.MaxActionItems {
		t.Errorf("%s: %d action items, want at most %d", name, len(s.ActionItems), builtin.MaxActionItems)
	}
	for _, it := range s.ActionItems {
		if strings.TrimSpace(it.Description) == "" {
			t.Errorf("%s: action item with an empty description", name)
		}
		if it.DueAt != nil && it.DueAt.Location() != time.UTC {
			t.Errorf("%s: due %v is not UTC", name, it.DueAt)
		}
	}
	for _, ev := range s.Events {
		if strings.TrimSpace(ev.Title) == "" {
			t.Errorf("%s: event with an empty title", name)
		}
		if ev.Start.Location() != time.UTC || ev.Start.IsZero() {
			t.Errorf("%s: event start %v is not a UTC time", name, ev.Start)
		}
		if ev.Duration < 1 || ev.Duration > appliance.MaxEventMinutes {
			t.Errorf("%s: event duration %d out of 1..%d", name, ev.Duration, appliance.MaxEventMinutes)
		}
		if ev.Created {
			t.Errorf("%s: event created = true", name)
		}
	}
}

// caseLogf logs one entry's miss, except a held-out entry's: the held-out
// split is scored, never read case by case, or it would be tuned to.
func caseLogf(t *testing.T, e corpusEntry, format string, args ...any) {
	t.Helper()
	if e.Split != "holdout" {
		t.Logf(format, args...)
	}
}

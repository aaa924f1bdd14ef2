package eval

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// Splits of the corpus, fixed once from each conversation's name.
const (
	SplitDev     = "dev"
	SplitHeldOut = "heldout"
)

// Case is one labelled conversation of the corpus.
type Case struct {
	Name      string    `json:"name"`
	Style     string    `json:"style"`
	Split     string    `json:"split"`
	Form      string    `json:"form"`
	StartedAt time.Time `json:"started_at"`
	TimeZone  string    `json:"time_zone"`
	Language  string    `json:"language"`
	Source    string    `json:"source"`
	Notes     string    `json:"notes,omitempty"`
	Segments  []Segment `json:"segments"`

	Discard       bool     `json:"discard"`
	DiscardEither bool     `json:"discard_either,omitempty"`
	Events        []Event  `json:"events"`
	ActionItems   []Item   `json:"action_items"`
	Memories      []Memory `json:"memories"`
	OKEvents      []Event  `json:"acceptable_events"`
	OKActionItems []Item   `json:"acceptable_action_items"`
	OKMemories    []Memory `json:"acceptable_memories"`

	loc *time.Location
}

// Segment is one utterance of a labelled transcript.
type Segment struct {
	Text    string  `json:"text"`
	Speaker string  `json:"speaker"`
	IsUser  bool    `json:"is_user"`
	Start   float64 `json:"start"`
	End     float64 `json:"end"`
}

// Event is a labelled event; Start is an RFC 3339 instant or, when no time
// was said, a bare date.
type Event struct {
	Title    string `json:"title"`
	Start    When   `json:"start"`
	Duration int    `json:"duration_minutes,omitempty"`
}

// Item is a labelled action item; a nil Due means no time was said.
type Item struct {
	Description string `json:"description"`
	Due         *When  `json:"due,omitempty"`
}

// Memory is a labelled memory.
type Memory struct {
	Content  string `json:"content"`
	Category string `json:"category"`
}

// When is an instant, or a calendar date when DateOnly.
type When struct {
	Time     time.Time
	DateOnly bool
	date     string
}

// UnmarshalJSON accepts "2026-11-30T08:00:00-05:00" or "2026-11-30".
func (w *When) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		*w = When{Time: t, DateOnly: true, date: s}
		return nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return fmt.Errorf("when %q: neither a date nor an RFC 3339 instant", s)
	}
	*w = When{Time: t}
	return nil
}

// MarshalJSON writes the form UnmarshalJSON reads.
func (w When) MarshalJSON() ([]byte, error) {
	if w.DateOnly {
		return json.Marshal(w.date)
	}
	return json.Marshal(w.Time.Format(time.RFC3339))
}

// sameDay reports whether t falls on w's date in loc.
func (w When) sameDay(t time.Time, loc *time.Location) bool {
	want := w.date
	if !w.DateOnly {
		want = w.Time.In(loc).Format(time.DateOnly)
	}
	return t.In(loc).Format(time.DateOnly) == want
}

// Load reads every *.json case under dir, sorted by name.
func Load(dir string) ([]Case, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	out := make([]Case, 0, len(files))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var c Case
		dec := json.NewDecoder(strings.NewReader(string(b)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&c); err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Base(f), err)
		}
		if err := c.check(); err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Base(f), err)
		}
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

func (c *Case) check() error {
	if c.Split != SplitDev && c.Split != SplitHeldOut {
		return fmt.Errorf("split %q", c.Split)
	}
	if c.StartedAt.IsZero() || len(c.Segments) == 0 {
		return fmt.Errorf("started_at and segments are required")
	}
	loc, err := time.LoadLocation(c.TimeZone)
	if err != nil {
		return err
	}
	c.loc = loc
	return nil
}

// Location is the conversation's time zone.
func (c *Case) Location() *time.Location { return c.loc }

// Conversation is the case as the pipeline receives it from a device.
func (c *Case) Conversation() *appliance.Conversation {
	started := c.StartedAt
	segs := make([]appliance.TranscriptSegment, len(c.Segments))
	for i, s := range c.Segments {
		segs[i] = appliance.TranscriptSegment{
			ID: fmt.Sprintf("s%d", i), Text: s.Text, Speaker: s.Speaker, SpeakerID: appliance.SpeakerIDFromLabel(s.Speaker),
			IsUser: s.IsUser, Start: s.Start, End: s.End,
		}
	}
	finished := started.Add(time.Duration(c.Segments[len(c.Segments)-1].End * float64(time.Second)))
	return &appliance.Conversation{
		ID: c.Name, Source: appliance.ParseConversationSource(c.Source), Language: c.Language,
		CreatedAt: started, StartedAt: &started, FinishedAt: &finished, TranscriptSegments: segs,
	}
}

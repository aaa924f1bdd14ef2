// Package omiapp is a test client that behaves like the Omi phone app's
// live transcription: it opens /v4/listen with the app's query string,
// answers the server's heartbeat as the app does, streams a wearable's
// audio frames, and keeps the transcript the app would show, built by the
// app's own segment rules (ported from app/lib/backend/schema/
// transcript_segment.dart and the capture provider). Tests use it to see
// the appliance through the app's eyes: a segment the server sends in a
// shape the app mishandles shows up here as the app would show it.
package omiapp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Segment is a transcript segment as the app holds it.
type Segment struct {
	ID   string `json:"id"`
	Text string `json:"text"`
	// Speaker is the "SPEAKER_nn" label; the app compares labels, not
	// numbers, when it merges.
	Speaker string `json:"speaker"`
	// SpeakerID is the number in Speaker, derived as the app derives it.
	SpeakerID              int           `json:"speaker_id"`
	IsUser                 bool          `json:"is_user"`
	PersonID               *string       `json:"person_id"`
	Start                  float64       `json:"start"`
	End                    float64       `json:"end"`
	Translations           []Translation `json:"translations"`
	SpeechProfileProcessed bool          `json:"speech_profile_processed"`
	STTProvider            *string       `json:"stt_provider"`
}

// Translation is one language's text of a segment.
type Translation struct {
	Lang string `json:"lang"`
	Text string `json:"text"`
}

// UnmarshalJSON decodes a segment with the app's defaults: id "", speaker
// "SPEAKER_00", is_user false, speech_profile_processed true; start and end
// are read from a number or a numeric string, 0 when absent.
func (s *Segment) UnmarshalJSON(b []byte) error {
	var w struct {
		ID                     *string         `json:"id"`
		Text                   *string         `json:"text"`
		Speaker                *string         `json:"speaker"`
		IsUser                 *bool           `json:"is_user"`
		PersonID               *string         `json:"person_id"`
		Start                  json.RawMessage `json:"start"`
		End                    json.RawMessage `json:"end"`
		Translations           []Translation   `json:"translations"`
		SpeechProfileProcessed *bool           `json:"speech_profile_processed"`
		STTProvider            *string         `json:"stt_provider"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	start, err := lenientNumber(w.Start)
	if err != nil {
		return fmt.Errorf("start: %w", err)
	}
	end, err := lenientNumber(w.End)
	if err != nil {
		return fmt.Errorf("end: %w", err)
	}
	*s = Segment{ID: deref(w.ID, ""), Text: deref(w.Text, ""), Speaker: deref(w.Speaker, "SPEAKER_00"),
		IsUser: deref(w.IsUser, false), PersonID: w.PersonID, Start: start, End: end,
		Translations: w.Translations, SpeechProfileProcessed: deref(w.SpeechProfileProcessed, true), STTProvider: w.STTProvider}
	if s.Translations == nil {
		s.Translations = []Translation{}
	}
	s.SpeakerID = speakerNumber(s.Speaker)
	return nil
}

func deref[T any](p *T, def T) T {
	if p == nil {
		return def
	}
	return *p
}

// lenientNumber reads a JSON number, a numeric string, or null.
func lenientNumber(raw json.RawMessage) (float64, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return 0, nil
	}
	var f float64
	if err := json.Unmarshal(raw, &f); err == nil {
		return f, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return 0, fmt.Errorf("%s is neither a number nor a string", raw)
	}
	return strconv.ParseFloat(strings.TrimSpace(s), 64)
}

// speakerNumber is the app's speakerId: the part after the first "_" of
// the label, 0 when there is none or it is no integer.
func speakerNumber(label string) int {
	parts := strings.Split(label, "_")
	if len(parts) < 2 {
		return 0
	}
	n, err := strconv.Atoi(parts[1])
	if err != nil {
		return 0
	}
	return n
}

// DecodeSegments decodes a JSON array of segments as the app does.
func DecodeSegments(b []byte) ([]Segment, error) {
	var segs []Segment
	if err := json.Unmarshal(b, &segs); err != nil {
		return nil, err
	}
	return segs, nil
}

// UpdateSegments is the app's TranscriptSegment.updateSegments: each
// segment of segments whose id is among updates is replaced in place by
// that update (the last one with the id, when updates repeat an id), and
// the updates that replaced nothing are returned, in their order. On an
// empty segments every update is new, repeated ids included.
func UpdateSegments(segments, updates []Segment) []Segment {
	if len(updates) == 0 {
		return []Segment{}
	}
	if len(segments) == 0 {
		return updates
	}
	byID := make(map[string]Segment, len(updates))
	for _, u := range updates {
		byID[u.ID] = u
	}
	for i := range segments {
		if u, ok := byID[segments[i].ID]; ok {
			segments[i] = u
			delete(byID, segments[i].ID)
		}
	}
	var remain []Segment
	for _, u := range updates {
		if _, ok := byID[u.ID]; ok {
			remain = append(remain, u)
		}
	}
	if remain == nil {
		remain = []Segment{}
	}
	return remain
}

// DefaultMaxGap is the app's boundary merge gap in seconds.
const DefaultMaxGap = 3.0

// MergeNewSegmentsAtBoundary is the app's
// TranscriptSegment.mergeNewSegmentsAtBoundary: from the last segment
// before insertStart onwards, a segment joins the one before it when both
// have the same speaker label and is_user and it starts 0 to maxGap
// seconds after that one ends. The joined segment keeps the earlier one's
// id; the later one is gone from the list. It returns the list.
func MergeNewSegmentsAtBoundary(segments []Segment, insertStart int, maxGap float64) []Segment {
	if len(segments) < 2 || insertStart <= 0 {
		return segments
	}
	startCheck := insertStart - 1
	if startCheck >= len(segments)-1 {
		return segments
	}
	tail := []Segment{segments[startCheck]}
	for i := startCheck + 1; i < len(segments); i++ {
		cur := &tail[len(tail)-1]
		next := segments[i]
		gap := next.Start - cur.End
		if cur.Speaker == next.Speaker && cur.IsUser == next.IsUser && gap <= maxGap && gap >= 0 {
			cur.Text = strings.TrimSpace(cur.Text + " " + next.Text)
			cur.End = next.End
			continue
		}
		tail = append(tail, next)
	}
	if len(tail) != len(segments)-startCheck {
		segments = append(segments[:startCheck], tail...)
	}
	return segments
}

// Transcript is the list of segments the app shows for one recording, kept
// by the app's rules.
type Transcript struct {
	Segments []Segment
}

// Receive applies one server message of segments as the capture provider
// does: replace by id, append the rest, then merge at the boundary.
func (t *Transcript) Receive(fresh []Segment) {
	if len(fresh) == 0 {
		return
	}
	insertStart := len(t.Segments)
	remain := UpdateSegments(t.Segments, fresh)
	t.Segments = append(t.Segments, remain...)
	if len(remain) > 0 {
		t.Segments = MergeNewSegmentsAtBoundary(t.Segments, insertStart, DefaultMaxGap)
	}
}

// Translate applies a translating event: segments are replaced by id, and
// those the app does not hold are dropped.
func (t *Transcript) Translate(segs []Segment) {
	if len(segs) == 0 {
		return
	}
	UpdateSegments(t.Segments, segs)
}

// Delete removes segments by id (what newer app versions do on
// segments_deleted).
func (t *Transcript) Delete(ids []string) {
	if len(ids) == 0 {
		return
	}
	gone := map[string]bool{}
	for _, id := range ids {
		gone[id] = true
	}
	kept := t.Segments[:0]
	for _, s := range t.Segments {
		if !gone[s.ID] {
			kept = append(kept, s)
		}
	}
	t.Segments = kept
}

// Clone is a copy that shares nothing with t.
func (t Transcript) Clone() []Segment {
	return cloneSegments(t.Segments)
}

func cloneSegments(in []Segment) []Segment {
	out := make([]Segment, len(in))
	for i, s := range in {
		s.Translations = append([]Translation(nil), s.Translations...)
		out[i] = s
	}
	return out
}

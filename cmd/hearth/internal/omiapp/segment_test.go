package omiapp

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// seg is a segment of SPEAKER_00, not the user's, unless changed.
func seg(id, text string, start, end float64) Segment {
	return Segment{ID: id, Text: text, Speaker: "SPEAKER_00", Start: start, End: end, SpeechProfileProcessed: true,
		Translations: []Translation{}}
}

func (s Segment) by(speaker string, user bool) Segment {
	s.Speaker, s.IsUser = speaker, user
	s.SpeakerID = speakerNumber(speaker)
	return s
}

// brief is what the tests compare: id and text of each segment, and its
// times.
type brief struct {
	ID, Text   string
	Start, End float64
}

func briefs(segs []Segment) []brief {
	out := []brief{}
	for _, s := range segs {
		out = append(out, brief{s.ID, s.Text, s.Start, s.End})
	}
	return out
}

func TestUpdateSegments(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name              string
		segments, updates []Segment
		wantSegments      []brief
		wantRemain        []brief
	}{
		{"no updates", []Segment{seg("a", "one", 0, 1)}, nil,
			[]brief{{"a", "one", 0, 1}}, []brief{}},
		{"empty list: every update is new", nil, []Segment{seg("a", "one", 0, 1), seg("b", "two", 1, 2)},
			[]brief{}, []brief{{"a", "one", 0, 1}, {"b", "two", 1, 2}}},
		{"empty list keeps repeated ids", nil, []Segment{seg("a", "one", 0, 1), seg("a", "one more", 0, 2)},
			[]brief{}, []brief{{"a", "one", 0, 1}, {"a", "one more", 0, 2}}},
		{"replace by id in place", []Segment{seg("a", "one", 0, 1), seg("b", "two", 1, 2)}, []Segment{seg("a", "one!", 0, 1.5)},
			[]brief{{"a", "one!", 0, 1.5}, {"b", "two", 1, 2}}, []brief{}},
		{"new ids are returned in their order", []Segment{seg("a", "one", 0, 1)},
			[]Segment{seg("c", "three", 5, 6), seg("a", "uno", 0, 1), seg("b", "two", 2, 3)},
			[]brief{{"a", "uno", 0, 1}}, []brief{{"c", "three", 5, 6}, {"b", "two", 2, 3}}},
		{"a repeated id: the later update wins, and is not new", []Segment{seg("a", "one", 0, 1)},
			[]Segment{seg("a", "first", 0, 1), seg("a", "second", 0, 2)},
			[]brief{{"a", "second", 0, 2}}, []brief{}},
		{"a repeated new id comes back twice", []Segment{seg("a", "one", 0, 1)},
			[]Segment{seg("b", "first", 2, 3), seg("b", "second", 2, 4)},
			[]brief{{"a", "one", 0, 1}}, []brief{{"b", "first", 2, 3}, {"b", "second", 2, 4}}},
		{"only the first of two held segments with an id is replaced", []Segment{seg("a", "one", 0, 1), seg("a", "again", 1, 2)},
			[]Segment{seg("a", "new", 0, 1)},
			[]brief{{"a", "new", 0, 1}, {"a", "again", 1, 2}}, []brief{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			segs := cloneSegments(tc.segments)
			remain := UpdateSegments(segs, tc.updates)
			if d := cmp.Diff(tc.wantSegments, briefs(segs)); d != "" {
				t.Errorf("segments (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.wantRemain, briefs(remain)); d != "" {
				t.Errorf("remain (-want +got):\n%s", d)
			}
		})
	}
}

func TestMergeNewSegmentsAtBoundary(t *testing.T) {
	t.Parallel()
	a := seg("a", "alpha", 0, 2)
	for _, tc := range []struct {
		name        string
		segments    []Segment
		insertStart int
		want        []brief
	}{
		{"gap 0 merges", []Segment{a, seg("b", "beta", 2, 3)}, 1, []brief{{"a", "alpha beta", 0, 3}}},
		{"gap 1.5 merges", []Segment{a, seg("b", "beta", 3.5, 4)}, 1, []brief{{"a", "alpha beta", 0, 4}}},
		{"gap 3 merges", []Segment{a, seg("b", "beta", 5, 6)}, 1, []brief{{"a", "alpha beta", 0, 6}}},
		{"gap 3.01 does not", []Segment{a, seg("b", "beta", 5.01, 6)}, 1, []brief{{"a", "alpha", 0, 2}, {"b", "beta", 5.01, 6}}},
		{"an overlap (negative gap) does not", []Segment{a, seg("b", "beta", 1.9, 3)}, 1, []brief{{"a", "alpha", 0, 2}, {"b", "beta", 1.9, 3}}},
		{"another speaker does not", []Segment{a, seg("b", "beta", 2.5, 3).by("SPEAKER_01", false)}, 1,
			[]brief{{"a", "alpha", 0, 2}, {"b", "beta", 2.5, 3}}},
		{"the same speaker as the user does not", []Segment{a, seg("b", "beta", 2.5, 3).by("SPEAKER_00", true)}, 1,
			[]brief{{"a", "alpha", 0, 2}, {"b", "beta", 2.5, 3}}},
		{"labels compare as strings", []Segment{a, seg("b", "beta", 2.5, 3).by("SPEAKER_0", false)}, 1,
			[]brief{{"a", "alpha", 0, 2}, {"b", "beta", 2.5, 3}}},
		{"a chain of new segments folds into the boundary", []Segment{a, seg("b", "beta", 2.5, 3), seg("c", "gamma", 3.2, 4)}, 1,
			[]brief{{"a", "alpha beta gamma", 0, 4}}},
		{"new segments fold into each other past a break", []Segment{a, seg("b", "beta", 9, 10), seg("c", "gamma", 10.5, 11)}, 1,
			[]brief{{"a", "alpha", 0, 2}, {"b", "beta gamma", 9, 11}}},
		{"before the boundary nothing is looked at", []Segment{a, seg("b", "beta", 2.5, 3), seg("c", "gamma", 20, 21)}, 2,
			[]brief{{"a", "alpha", 0, 2}, {"b", "beta", 2.5, 3}, {"c", "gamma", 20, 21}}},
		{"insertStart 0: no merge", []Segment{a, seg("b", "beta", 2.5, 3)}, 0, []brief{{"a", "alpha", 0, 2}, {"b", "beta", 2.5, 3}}},
		{"nothing new: no merge", []Segment{a, seg("b", "beta", 2.5, 3)}, 2, []brief{{"a", "alpha", 0, 2}, {"b", "beta", 2.5, 3}}},
		{"texts are trimmed after joining", []Segment{seg("a", "", 0, 2), seg("b", "beta ", 2.5, 3)}, 1, []brief{{"a", "beta", 0, 3}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := MergeNewSegmentsAtBoundary(cloneSegments(tc.segments), tc.insertStart, DefaultMaxGap)
			if d := cmp.Diff(tc.want, briefs(got)); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestTranscriptReceive(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		messages [][]Segment
		want     []brief
	}{
		{"first message: all appended, never merged", [][]Segment{{seg("a", "alpha", 0, 2), seg("b", "beta", 2.5, 3)}},
			[]brief{{"a", "alpha", 0, 2}, {"b", "beta", 2.5, 3}}},
		{"a later message merges at the boundary", [][]Segment{{seg("a", "alpha", 0, 2)}, {seg("b", "beta", 2.5, 3)}},
			[]brief{{"a", "alpha beta", 0, 3}}},
		{"a gap over 3 s starts a segment", [][]Segment{{seg("a", "alpha", 0, 2)}, {seg("b", "beta", 5.5, 6)}},
			[]brief{{"a", "alpha", 0, 2}, {"b", "beta", 5.5, 6}}},
		{"an update by id replaces, even a merged segment", [][]Segment{{seg("a", "alpha", 0, 2)}, {seg("b", "beta", 2.5, 3)}, {seg("a", "alpha!", 0, 2)}},
			[]brief{{"a", "alpha!", 0, 2}}},
		{"the server extends a segment under its id", [][]Segment{{seg("a", "alpha", 0, 2)}, {seg("b", "beta", 9, 10)}, {seg("b", "beta gamma", 9, 11)}},
			[]brief{{"a", "alpha", 0, 2}, {"b", "beta gamma", 9, 11}}},
		{"an update and a new segment together", [][]Segment{{seg("a", "alpha", 0, 2)}, {seg("a", "Alpha.", 0, 2), seg("b", "beta", 9, 10)}},
			[]brief{{"a", "Alpha.", 0, 2}, {"b", "beta", 9, 10}}},
		{"a merged segment under a new id is shown after the old one", [][]Segment{{seg("a", "alpha", 0, 2)}, {seg("m", "alpha beta", 0, 3)}},
			[]brief{{"a", "alpha", 0, 2}, {"m", "alpha beta", 0, 3}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var tr Transcript
			for _, m := range tc.messages {
				tr.Receive(cloneSegments(m))
			}
			if d := cmp.Diff(tc.want, briefs(tr.Segments)); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

// TestTheAppRepeatsTextAMergedSegmentExtends documents what the app does
// when the server sends a segment under its own id (B) after the app had
// already folded B into the segment before it (A), and then extends B
// under B's id: the app no longer holds B, so the extension is new, comes
// after A (which already ends where B ended) with a negative gap, and is
// not merged. The app shows B's words twice.
func TestTheAppRepeatsTextAMergedSegmentExtends(t *testing.T) {
	t.Parallel()
	var tr Transcript
	tr.Receive([]Segment{seg("A", "A", 0, 2)})
	tr.Receive([]Segment{seg("B", "B", 3, 4)}) // same speaker, 1 s later
	if d := cmp.Diff([]brief{{"A", "A B", 0, 4}}, briefs(tr.Segments)); d != "" {
		t.Fatalf("after B (-want +got):\n%s", d)
	}
	tr.Receive([]Segment{seg("B", "B C", 3, 5)})
	if d := cmp.Diff([]brief{{"A", "A B", 0, 4}, {"B", "B C", 3, 5}}, briefs(tr.Segments)); d != "" {
		t.Fatalf("after B C (-want +got):\n%s", d)
	}
	if got := Text(tr.Segments); got != "A B B C" {
		t.Fatalf("the app shows %q, want the repeated %q", got, "A B B C")
	}
	stored := []Segment{seg("A", "A", 0, 2), seg("B", "B C", 3, 5)}
	err := SameText(tr.Segments, stored)
	if err == nil || !strings.Contains(err.Error(), "+[B]") {
		t.Fatalf("SameText: %v", err)
	}
}

func TestTranslateReplacesWithoutAppending(t *testing.T) {
	t.Parallel()
	var tr Transcript
	tr.Receive([]Segment{seg("a", "hola", 0, 1)})
	translated := seg("a", "hola", 0, 1)
	translated.Translations = []Translation{{Lang: "en", Text: "hello"}}
	tr.Translate([]Segment{translated, seg("z", "unknown", 5, 6)})
	if len(tr.Segments) != 1 || tr.Segments[0].Translations[0].Text != "hello" {
		t.Fatalf("%+v", tr.Segments)
	}
}

func TestDecodeSegmentsAsTheApp(t *testing.T) {
	t.Parallel()
	got, err := DecodeSegments([]byte(`[
		{"text":"bare"},
		{"id":"x","text":"full","speaker":"SPEAKER_03","is_user":true,"person_id":"p","start":"1.5","end":2,
		 "speech_profile_processed":false,"stt_provider":"pocketsphinx","translations":[{"lang":"es","text":"lleno"}]},
		{"id":"y","text":"odd label","speaker":"SPEAKER","start":null}]`))
	if err != nil {
		t.Fatal(err)
	}
	p, prov := "p", "pocketsphinx"
	want := []Segment{
		{Text: "bare", Speaker: "SPEAKER_00", SpeechProfileProcessed: true, Translations: []Translation{}},
		{ID: "x", Text: "full", Speaker: "SPEAKER_03", SpeakerID: 3, IsUser: true, PersonID: &p, Start: 1.5, End: 2,
			Translations: []Translation{{"es", "lleno"}}, STTProvider: &prov},
		{ID: "y", Text: "odd label", Speaker: "SPEAKER", SpeechProfileProcessed: true, Translations: []Translation{}},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("(-want +got):\n%s", d)
	}
	if _, err := DecodeSegments([]byte(`[{"text":"x","start":"soon"}]`)); err == nil {
		t.Fatal("a start that is no number decoded")
	}
}

func TestParseMessage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		raw     string
		kind    string
		unknown bool
		segs    int
	}{
		{`ping`, KindPing, false, 0},
		{`[{"id":"a","text":"hi"}]`, KindSegments, false, 1},
		{`{"type":"service_status","status":"ready"}`, "service_status", false, 0},
		{`{"type":"memory_processing_started","memory":{"id":"c"}}`, "memory_processing_started", false, 0},
		{`{"type":"translating","segments":[{"id":"a","text":"hi"}]}`, "translating", false, 1},
		{`{"type":"segments_deleted","segment_ids":["a"]}`, "segments_deleted", true, 0},
		{`{"status":"x"}`, "unknown", true, 0},
		{`{not json`, KindInvalid, false, 0},
	} {
		m := parseMessage([]byte(tc.raw), timeZero)
		if m.Kind != tc.kind || m.Unknown != tc.unknown || len(m.Segments) != tc.segs {
			t.Errorf("%s: kind %q unknown %t segments %d", tc.raw, m.Kind, m.Unknown, len(m.Segments))
		}
	}
	m := parseMessage([]byte(`{"type":"memory_created","memory":{"id":"c1","status":"completed"}}`), timeZero)
	if m.Memory()["id"] != "c1" || m.Field("type") != "memory_created" {
		t.Fatalf("memory %v", m.Memory())
	}
	var ids []string
	json.Unmarshal([]byte(`["a","b"]`), &ids)
	if got := parseMessage([]byte(`{"type":"segments_deleted","segment_ids":["a","b"]}`), timeZero).segmentIDs(); !cmp.Equal(got, ids) {
		t.Fatalf("segment ids %v", got)
	}
}

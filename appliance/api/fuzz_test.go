package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// FuzzParseFromSegments: any body either parses into a request that obeys
// every rule, or fails with a validation error (never a panic, never an
// internal error).
func FuzzParseFromSegments(f *testing.F) {
	for _, s := range []string{
		`{"transcript_segments":[{"text":"hi","start":0,"end":1}]}`,
		`{"transcript_segments":[{"text":"hi","start":0,"end":1,"speaker":"SPEAKER_01","speaker_id":3,"is_user":true,"person_id":"p"}],"source":"omi","language":"de","started_at":"2026-01-01T00:00:00Z","finished_at":1767225700,"geolocation":{"latitude":1,"longitude":2,"accuracy":3,"capture_source":"manual"},"client_processing":{"a":[1,{"b":null}]},"client_session_id":"s","conversation_role":"meeting","conversation_finalization_reason":"retry"}`,
		`{"transcript_segments":[]}`, `[]`, `null`, `{`, `{"transcript_segments":[{"text":"","start":-1,"end":-2}]}`,
		`{"transcript_segments":[{"text":"x","start":1e309,"end":2}]}`, `{"geolocation":{"latitude":1e999}}`,
		`{"client_id":"   ","transcript_segments":"x"}`, "{\"transcript_segments\":[{\"text\":\"\\u0000\",\"start\":0,\"end\":1}]}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		r, err := parseFromSegments(body)
		if err != nil {
			var ve *appliance.ValidationError
			if !errors.As(err, &ve) || len(ve.Fields) == 0 {
				t.Fatalf("error %v is not a validation error", err)
			}
			for _, fe := range ve.Fields {
				if len(fe.Loc) == 0 || fe.Loc[0] != "body" || fe.Msg == "" || fe.Type == "" {
					t.Fatalf("malformed field error %+v", fe)
				}
			}
			return
		}
		if n := len(r.Segments); n < 1 || n > maxSegments {
			t.Fatalf("%d segments accepted", n)
		}
		for i, s := range r.Segments {
			if !(s.End > s.Start) || s.Start < 0 || strings.TrimSpace(s.Text) == "" {
				t.Fatalf("segment %d accepted: %+v", i, s)
			}
		}
		if n := len([]rune(r.ClientSessionID)); n > maxClientSessionID {
			t.Fatalf("session id of %d runes accepted", n)
		}
		if len(r.ClientProcessing) > maxClientProcessing {
			t.Fatalf("client_processing of %d bytes kept", len(r.ClientProcessing))
		}
		start, finish, err := r.times(time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC))
		if err == nil && !finish.After(start) {
			t.Fatalf("finish %v not after start %v", finish, start)
		}
	})
}

// FuzzDecodeJSONObject: the generic body decoder never panics and only ever
// returns an object or a validation error.
func FuzzDecodeJSONObject(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":1}`, `[]`, `"x"`, `{"a":1} {"b":2}`, ``, `{"a":1e400}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		m, err := decodeJSONObject(body)
		var ve *appliance.ValidationError
		switch {
		case err == nil && m == nil:
			t.Fatal("nil object without error")
		case err != nil && !errors.As(err, &ve):
			t.Fatalf("error %v is not a validation error", err)
		}
	})
}

func TestLimiter(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	l := NewLimiter(2, func() time.Time { return now })
	p := Policy{"p", 3, time.Minute}
	q := Policy{"q", 100, time.Minute}
	for i := range 6 { // boost 2: 6 allowed
		if d := l.Allow("k", p, q); d != nil {
			t.Fatalf("request %d denied", i)
		}
	}
	d := l.Allow("k", p, q)
	if d == nil || d.Policy.Name != "p" || d.Limit != 6 || d.RetryAfter != time.Minute {
		t.Fatalf("denial = %+v", d)
	}
	// A denied request is charged to no policy.
	if l.windows["q\x00k"].count != 6 {
		t.Fatalf("q charged %d, want 6", l.windows["q\x00k"].count)
	}
	if l.Allow("other", p) != nil {
		t.Fatal("another subject shares the budget")
	}
	now = now.Add(time.Minute)
	if l.Allow("k", p) != nil {
		t.Fatal("denied after the window")
	}
	// One limiter, many requests: a fresh limiter allows its first request
	// whatever the boost, so only the later ones show that 0 disables limits.
	off := NewLimiter(0, func() time.Time { return now })
	for i := range 5 {
		if d := off.Allow("k", Policy{"p", 1, time.Hour}); d != nil {
			t.Fatalf("boost 0: request %d denied: %+v", i, d)
		}
	}
}

// FuzzFastFromSegmentsAgrees: the fast reader of create bodies takes only
// bodies the generic path accepts, and reads them into the same request.
func FuzzFastFromSegmentsAgrees(f *testing.F) {
	for _, s := range []string{
		`{"transcript_segments":[{"text":"hi","start":0,"end":1}]}`,
		` {"transcript_segments" : [ {"text":"hi there","speaker":"SPEAKER_01","speaker_id":3,"is_user":true,"person_id":"p","start":0.5,"end":1e1} ,
			{"text":"caf\u00e9 \"quoted\" \ud83d\ude00 \ud800","speaker":"","speaker_id":null,"is_user":null,"person_id":"","start":10,"end":12.25}],
			"source":"omi","language":"  de ","started_at":"2026-01-01T00:00:00Z","finished_at":1767225700,
			"client_session_id":" s ","session_id":"later","conversation_role":"meeting","conversation_finalization_reason":"retry",
			"client_device_id":"d","client_platform":"ios"} `,
		`{"transcript_segments":[{"text":"hi","start":0,"end":1}],"client_id":"c"}`,
		`{"transcript_segments":[{"text":"hi","start":0,"end":1}],"language":"  "}`,
		`{"transcript_segments":[{"text":"hi","start":0,"end":1}],"te\u0078t":1}`,
		`{"transcript_segments":[{"te\u0078t":"hi","start":0,"end":1}]}`,
		`{"transcript_segments":[{"text":"hi","start":0,"end":1,"speaker_id":2.0}]}`,
		`{"transcript_segments":[{"text":"hi","start":0,"end":1,"speaker_id":2147483648}]}`,
		`{"transcript_segments":[{"text":"hi","start":0,"end":1e309}]}`,
		`{"transcript_segments":[{"text":"hi","start":01,"end":2}]}`,
		`{"transcript_segments":[{"text":"hi","start":0,"end":1,"Text":"x"}]}`,
		`{"transcript_segments":[{"text":"hi","start":0,"end":1}],"Source":"omi"}`,
		`{"transcript_segments":[{"text":"hi","start":0,"end":1}]}{}`,
		`{"transcript_segments":[{"text":"hi","start":0,"end":1}],"source":"omi","source":"phone"}`,
		`{"transcript_segments":[{"text":"  ","start":0,"end":1}]}`,
		`{"transcript_segments":[{"text":"hi","start":2,"end":1}]}`,
		`{"transcript_segments":[{"text":"hi","start":0,"end":1}],"started_at":"not a time"}`,
		`{"transcript_segments":[{"text":"hi","start":0,"end":1}],"client_session_id":"   "}`,
		`{"transcript_segments":[{"text":"hi","start":0,"end":1}],"conversation_role":"solo"}`,
		"{\"transcript_segments\":[{\"text\":\"bad \xff utf8\",\"start\":0,\"end\":1}]}",
		`{"transcript_segments":[{"text":"hi","start":0,"end":1},]}`,
		`{"transcript_segments":[],"source":"omi"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		fast, ok := fastFromSegments(body)
		if !ok {
			return
		}
		generic, err := parseFromSegmentsGeneric(body)
		if err != nil {
			t.Fatalf("fast reader took a body the generic path refuses (%v): %s", err, body)
		}
		if !reflect.DeepEqual(fast, generic) {
			t.Fatalf("fast reader read\n%+v\nthe generic path\n%+v\nfrom %s", fast, generic, body)
		}
	})
}

// TestFastFromSegmentsTakesTheUsualBodies: the bodies apps and the
// benchmark send go the fast way (FuzzFastFromSegmentsAgrees holds it to
// the generic path's reading), the others the generic way.
func TestFastFromSegmentsTakesTheUsualBodies(t *testing.T) {
	for _, tc := range []struct {
		body string
		fast bool
	}{
		{`{"transcript_segments":[{"text":"hi","speaker":"SPEAKER_00","speaker_id":0,"is_user":false,"person_id":null,"start":0,"end":1.5}]}`, true},
		{`{"transcript_segments":[{"text":"a \u0026 b","start":0,"end":1}],"source":"omi","language":"en",
			"started_at":"2026-01-01T10:00:00Z","finished_at":"2026-01-01T10:05:00Z","client_session_id":"s1","conversation_role":"meeting"}`, true},
		{`{"transcript_segments":[{"text":"hi","start":0,"end":1}],"geolocation":{"latitude":1,"longitude":2}}`, false},
		{`{"transcript_segments":[{"text":"hi","start":0,"end":1,"translations":[]}]}`, false},
		{`{"transcript_segments":[{"text":"hi","start":1,"end":1}]}`, false},
		{`{"transcript_segments":"x"}`, false},
	} {
		if _, ok := fastFromSegments([]byte(tc.body)); ok != tc.fast {
			t.Errorf("fast = %v, want %v: %s", ok, tc.fast, tc.body)
		}
	}
}

// TestCreateResponseAsCJSON: the create response written by hand is the
// bytes c.JSON writes (encoding/json's Encoder), and one that would need
// escaping is left to c.JSON.
func TestCreateResponseAsCJSON(t *testing.T) {
	for _, r := range []createResponse{
		{ID: appliance.NewID(), Status: string(appliance.StatusCompleted)},
		{ID: "0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b", Status: string(appliance.StatusProcessing), Discarded: true, MeetingTreatmentEligible: true},
		{ID: "a<b&c>\"d\\e\u00e9\x01", Status: "completed"},
	} {
		var want bytes.Buffer
		if err := json.NewEncoder(&want).Encode(r); err != nil {
			t.Fatal(err)
		}
		got, ok := r.appendJSON(nil)
		if plain := !strings.ContainsAny(r.ID, "<&>\"\\\u00e9\x01"); ok != plain {
			t.Fatalf("%+v: ok = %v", r, ok)
		}
		if ok && string(got) != want.String() {
			t.Errorf("written %q, encoding/json %q", got, want.String())
		}
	}
}

package api

import (
	"errors"
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

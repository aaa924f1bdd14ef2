package api_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

const fromSegments = "/v1/dev/user/conversations/from-segments"

func seg(text string, start, end float64) string {
	return fmt.Sprintf(`{"text":%q,"start":%v,"end":%v}`, text, start, end)
}

func segs(n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = seg("We should plan the garden layout and buy seeds tomorrow.", float64(i), float64(i)+0.9)
	}
	return "[" + strings.Join(parts, ",") + "]"
}

func TestFromSegments_Validation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	auth := bearer(e.devRW)
	c := func(name, body string, want ...string) apiCase {
		return apiCase{Name: name, Method: "POST", Path: fromSegments, Auth: auth, Body: body, WantStatus: 422,
			WantContains: append([]string{`"detail":[{"loc":`}, want...)}
	}
	e.run(t, []apiCase{
		c("Empty", `{"transcript_segments":[]}`, `"msg":"transcript_segments cannot be empty"`, `"loc":["body","transcript_segments"]`),
		c("TooMany", `{"transcript_segments":`+segs(501)+`}`, `"msg":"Maximum 500 transcript segments allowed"`),
		c("Missing", `{}`, `"loc":["body","transcript_segments"],"msg":"Field required","type":"missing"`),
		c("Null", `{"transcript_segments":null}`, `"type":"missing"`),
		c("NotAList", `{"transcript_segments":"hello"}`, `"type":"list_type"`),
		c("SegmentNotObject", `{"transcript_segments":[1]}`, `"loc":["body","transcript_segments",0]`, `"type":"model_type"`),
		c("TextMissing", `{"transcript_segments":[{"start":0,"end":1}]}`, `"loc":["body","transcript_segments",0,"text"],"msg":"Field required"`),
		c("StartWrongType", `{"transcript_segments":[{"text":"hi","start":"0","end":1}]}`, `"loc":["body","transcript_segments",0,"start"]`, `"type":"float_type"`),
		c("EndMissing", `{"transcript_segments":[{"text":"hi","start":0}]}`, `"loc":["body","transcript_segments",0,"end"]`),
		c("EndBeforeStart", `{"transcript_segments":[`+seg("a", 0, 1)+`,`+seg("b", 3, 2)+`]}`, `"msg":"Segment 1: end time must be after start time"`),
		c("EndEqualsStart", `{"transcript_segments":[`+seg("a", 2, 2)+`]}`, `"msg":"Segment 0: end time must be after start time"`),
		c("NegativeStart", `{"transcript_segments":[`+seg("a", -1, 2)+`]}`, `"msg":"Segment 0: start time cannot be negative"`),
		c("BlankText", `{"transcript_segments":[`+seg("   ", 0, 2)+`]}`, `"msg":"Segment 0: text cannot be empty"`),
		c("FinishedBeforeStarted", `{"transcript_segments":[`+seg("hello there", 0, 2)+`],"started_at":"2026-01-02T10:00:00Z","finished_at":"2026-01-02T09:00:00Z"}`,
			`"msg":"finished_at must be after started_at"`),
		c("FinishedInThePastWithDefaultStart", `{"transcript_segments":[`+seg("hello there", 0, 2)+`],"finished_at":"2001-01-01T00:00:00Z"}`,
			`"msg":"finished_at must be after started_at"`),
		c("BadDate", `{"transcript_segments":[`+seg("hello", 0, 2)+`],"started_at":"yesterday"}`, `"loc":["body","started_at"]`, `"type":"datetime_parsing"`),
		c("BadJSON", `{"transcript_segments":[`, `"type":"json_invalid"`),
		c("NotAnObject", `[1,2]`, `"type":"model_attributes_type"`),
		c("SourceNotString", `{"transcript_segments":[`+seg("hello", 0, 2)+`],"source":5}`, `"loc":["body","source"]`, `"type":"enum"`),
		c("BadRole", `{"transcript_segments":[`+seg("hello", 0, 2)+`],"conversation_role":"party"}`, `"loc":["body","conversation_role"]`, `'ambient' or 'meeting'`),
		c("BadReason", `{"transcript_segments":[`+seg("hello", 0, 2)+`],"conversation_finalization_reason":"bored"}`, `"loc":["body","conversation_finalization_reason"]`),
		c("BlankSessionID", `{"transcript_segments":[`+seg("hello", 0, 2)+`],"client_session_id":"   "}`, `"loc":["body","client_session_id"]`, `"type":"string_too_short"`),
		c("LongSessionID", `{"transcript_segments":[`+seg("hello", 0, 2)+`],"client_session_id":"`+strings.Repeat("x", 201)+`"}`, `"type":"string_too_long"`),
		c("SpeakerIDFraction", `{"transcript_segments":[{"text":"hi","start":0,"end":1,"speaker_id":1.5}]}`, `"loc":["body","transcript_segments",0,"speaker_id"]`),
		c("IsUserNotBool", `{"transcript_segments":[{"text":"hi","start":0,"end":1,"is_user":"yes"}]}`, `"type":"bool_type"`),
		c("GeoMissingLatitude", `{"transcript_segments":[`+seg("hello", 0, 2)+`],"geolocation":{"longitude":1}}`, `"loc":["body","geolocation","latitude"]`),
		c("AllSegmentErrorsReported", `{"transcript_segments":[`+seg("", 0, 1)+`,`+seg("ok", 5, 4)+`]}`,
			`Segment 0: text cannot be empty`, `Segment 1: end time must be after start time`),
	})
}

func TestFromSegments_TooLarge(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *appliance.Config) { c.MaxBodyBytes = 4096 })
	e.run(t, []apiCase{{Name: "413", Method: "POST", Path: fromSegments, Auth: bearer(e.devRW),
		Body: `{"transcript_segments":` + segs(100) + `}`, WantStatus: 413, WantContains: []string{"Request body too large"}}})
}

func TestFromSegments_CreatesAndProcesses(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	before := e.clock.Now()
	resp := e.create(meetingBody)
	if resp["status"] != "completed" || resp["discarded"] != false || resp["meeting_treatment_eligible"] != false {
		t.Fatalf("response = %v", resp)
	}
	id := resp["id"].(string)
	got := decode(t, e.do("GET", "/v1/dev/user/conversations/"+id+"?include_transcript=true", bearer(e.devRW), ""))
	st := got["structured"].(map[string]any)
	title := st["title"].(string)
	if title == "" || strings.HasPrefix(title, "We Need to") || len(strings.Fields(title)) > 10 {
		t.Errorf("title = %q: want a topic title of at most 10 words", title)
	}
	if st["overview"] == "" || st["emoji"] == "" {
		t.Errorf("structured = %v", st)
	}
	if cat := st["category"].(string); cat != "business" && cat != "finance" {
		t.Errorf("category = %q, want business or finance", cat)
	}
	if got["source"] != "phone" || got["language"] != "en" {
		t.Errorf("defaults: source %v language %v", got["source"], got["language"])
	}
	started, _ := time.Parse(time.RFC3339Nano, got["started_at"].(string))
	finished, _ := time.Parse(time.RFC3339Nano, got["finished_at"].(string))
	if started.Before(before.Add(-time.Second)) || started.After(before.Add(time.Second)) {
		t.Errorf("started_at = %v, want about %v", started, before)
	}
	if d := finished.Sub(started); d != 13*time.Second {
		t.Errorf("finished_at - started_at = %v, want 13s (end of the last segment)", d)
	}
	ts := got["transcript_segments"].([]any)
	if len(ts) != 3 {
		t.Fatalf("segments = %d", len(ts))
	}
	s0, s1 := ts[0].(map[string]any), ts[1].(map[string]any)
	if s0["speaker_name"] != "Ada Lovelace" || s1["speaker_name"] != "Speaker 1" || s1["speaker_id"] != 1.0 {
		t.Errorf("speakers: %v / %v", s0, s1)
	}
	if s0["id"] == "" || s0["id"] == s1["id"] {
		t.Errorf("segment ids %v %v", s0["id"], s1["id"])
	}
}

func TestFromSegments_Fields(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	body := func(extra string) string {
		return `{"transcript_segments":[
			{"text":"Remind me to renew my passport before the trip to Lisbon in March.","speaker":"SPEAKER_02","start":0,"end":4},
			{"text":"And book the hotel near the old town for the conference.","speaker":"SPEAKER_03","speaker_id":7,"start":4,"end":8}]` + extra + `}`
	}
	get := func(id string) map[string]any {
		return decode(t, e.do("GET", "/v1/dev/user/conversations/"+id+"?include_transcript=true", bearer(e.devRW), ""))
	}
	t.Run("SpeakerIDFromLabelUnlessGiven", func(t *testing.T) {
		ts := get(e.create(body(""))["id"].(string))["transcript_segments"].([]any)
		if ts[0].(map[string]any)["speaker_id"] != 2.0 || ts[1].(map[string]any)["speaker_id"] != 7.0 {
			t.Fatalf("speaker ids: %v", ts)
		}
	})
	t.Run("SourcesAndLanguage", func(t *testing.T) {
		for in, want := range map[string]string{`"omi"`: "omi", `"limitless"`: "limitless", `"my-gadget"`: "unknown", `null`: "phone"} {
			c := get(e.create(body(`,"source":` + in + `,"language":"de"`))["id"].(string))
			if c["source"] != want || c["language"] != "de" {
				t.Errorf("source %s: got %v / %v, want %s", in, c["source"], c["language"], want)
			}
		}
	})
	t.Run("ExplicitTimes", func(t *testing.T) {
		c := get(e.create(body(`,"started_at":"2026-03-01T10:00:00+01:00","finished_at":"2026-03-01T10:30:00+01:00"`))["id"].(string))
		if c["started_at"] != "2026-03-01T09:00:00Z" || c["finished_at"] != "2026-03-01T09:30:00Z" {
			t.Fatalf("times %v %v", c["started_at"], c["finished_at"])
		}
	})
	for name, tc := range map[string]struct {
		geo  string
		kept bool
	}{
		"GeoKept":             {`{"latitude":38.71,"longitude":-9.14,"accuracy":12.5,"address":"Lisbon","capture_source":"manual"}`, true},
		"GeoLatOutOfBounds":   {`{"latitude":91,"longitude":0}`, false},
		"GeoLonOutOfBounds":   {`{"latitude":0,"longitude":-181}`, false},
		"GeoNegativeAccuracy": {`{"latitude":1,"longitude":1,"accuracy":-3}`, false},
		"GeoHugeNumber":       {`{"latitude":1e999,"longitude":1}`, false},
	} {
		t.Run(name, func(t *testing.T) {
			c := get(e.create(body(`,"geolocation":` + tc.geo))["id"].(string))
			if kept := c["geolocation"] != nil; kept != tc.kept {
				t.Fatalf("geolocation = %v, want kept=%v", c["geolocation"], tc.kept)
			}
			if tc.kept && c["geolocation"].(map[string]any)["address"] != "Lisbon" {
				t.Fatalf("geolocation = %v", c["geolocation"])
			}
		})
	}
	t.Run("ClientProcessing", func(t *testing.T) {
		for in, want := range map[string]string{
			`{"summary":"shown by the app"}`: `{"summary":"shown by the app"}`,
			`"just a string"`:                "",
			`[1,2,3]`:                        "",
			`{"a":` + strings.Repeat(`{"a":`, 40) + `1` + strings.Repeat(`}`, 41): "",
		} {
			id := e.create(body(`,"client_processing":` + in))["id"].(string)
			c, err := e.db.Conversation(context.Background(), e.user, id)
			if err != nil {
				t.Fatal(err)
			}
			if string(c.ClientProcessing) != want {
				t.Errorf("client_processing %s stored as %q, want %q", in, c.ClientProcessing, want)
			}
		}
	})
	t.Run("RoleAndReasonInExternalData", func(t *testing.T) {
		id := e.create(body(`,"conversation_role":"meeting","conversation_finalization_reason":"meeting_ended","client_device_id":"ios_ab12","client_platform":"ios"`))["id"].(string)
		c, err := e.db.Conversation(context.Background(), e.user, id)
		if err != nil {
			t.Fatal(err)
		}
		if c.ExternalData["conversation_role"] != "meeting" || c.ExternalData["conversation_finalization_reason"] != "meeting_ended" ||
			c.ClientDeviceID != "ios_ab12" || c.ClientPlatform != "ios" {
			t.Fatalf("stored %+v", c)
		}
	})
}

func TestFromSegments_MeetingTreatment(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var parts []string
	for i := range 20 { // 20 × 4 s = 80 s of speech over a 6-minute meeting
		parts = append(parts, seg("We reviewed the launch checklist and the open design questions for the release.", float64(i*18), float64(i*18+4)))
	}
	segsJSON := "[" + strings.Join(parts, ",") + "]"
	base := `{"transcript_segments":` + segsJSON + `,"source":"desktop","started_at":"2026-02-01T10:00:00Z","finished_at":"2026-02-01T10:06:00Z"`
	for name, tc := range map[string]struct {
		extra string
		want  bool
	}{
		"Eligible":     {`,"conversation_role":"meeting","conversation_finalization_reason":"meeting_ended"`, true},
		"Ambient":      {``, false},
		"Rotation":     {`,"conversation_role":"meeting","conversation_finalization_reason":"max_duration_rotation"`, false},
		"PhoneMeeting": {`,"conversation_role":"meeting","source":"phone"`, false},
	} {
		t.Run(name, func(t *testing.T) {
			resp := e.create(base + tc.extra + `}`)
			if resp["meeting_treatment_eligible"] != tc.want {
				t.Fatalf("meeting_treatment_eligible = %v, want %v", resp["meeting_treatment_eligible"], tc.want)
			}
		})
	}
}

func TestFromSegments_Discard(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	resp := e.create(`{"transcript_segments":[` + seg("Okay.", 0, 1) + `,` + seg("Hmm, yeah.", 1, 2) + `]}`)
	if resp["discarded"] != true || resp["status"] != "completed" {
		t.Fatalf("filler-only: %v", resp)
	}
	id := resp["id"].(string)
	// Stored and readable, but not listed.
	if rec := e.do("GET", "/v1/dev/user/conversations/"+id, bearer(e.devRW), ""); rec.Code != 200 {
		t.Fatalf("GET discarded: %d", rec.Code)
	}
	for _, c := range decodeList(t, e.do("GET", "/v1/dev/user/conversations", bearer(e.devRW), "")) {
		if c["id"] == id {
			t.Fatal("discarded conversation listed")
		}
	}
	// A text integration never discards.
	if r := e.create(`{"transcript_segments":[` + seg("Okay.", 0, 1) + `],"source":"workflow"}`); r["discarded"] != false {
		t.Fatalf("workflow source discarded: %v", r)
	}
}

func TestFromSegments_Idempotent(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	body := func(sid string) string {
		return `{"transcript_segments":[` + seg("Let's move the dentist appointment to Friday afternoon.", 0, 3) + `],"client_session_id":"` + sid + `"}`
	}
	first := e.create(body("session-1"))
	again := e.create(body("session-1"))
	if first["id"] != again["id"] || again["status"] != "completed" {
		t.Fatalf("retry: %v then %v", first, again)
	}
	// The trimmed value and the aliases name the same session.
	if alias := e.create(`{"transcript_segments":[` + seg("Other words entirely, about the budget.", 0, 3) + `],"session_id":"  session-1 "}`); alias["id"] != first["id"] {
		t.Fatalf("alias session_id: %v, want %v", alias["id"], first["id"])
	}
	// Another user with the same session id gets another conversation.
	rec := e.do("POST", fromSegments, bearer(e.otherRW), body("session-1"))
	if other := decode(t, rec); other["id"] == first["id"] {
		t.Fatal("two users share a conversation id")
	}
	// Without a session id every call creates a new conversation.
	if a, b := e.create(meetingBody), e.create(meetingBody); a["id"] == b["id"] {
		t.Fatal("calls without client_session_id returned the same id")
	}
}

func TestFromSegments_ConcurrentRetriesShareOneConversation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	body := `{"transcript_segments":[` + seg("Please schedule the plumber visit for Monday morning.", 0, 3) + `],"client_session_id":"burst"}`
	const n = 12
	ids := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rec := e.do("POST", fromSegments, bearer(e.devRW), body)
			if rec.Code != http.StatusOK {
				t.Errorf("status %d: %s", rec.Code, rec.Body)
				return
			}
			ids[i] = decode(t, rec)["id"].(string)
		}()
	}
	wg.Wait()
	for _, id := range ids {
		if id != ids[0] {
			t.Fatalf("ids differ: %v", ids)
		}
	}
	cs, err := e.db.Conversations(context.Background(), e.user, appliance.ConversationFilter{IncludeDiscarded: true, Limit: 100})
	if err != nil || len(cs) != 1 {
		t.Fatalf("stored %d conversations (%v), want 1", len(cs), err)
	}
}

func TestGetConversation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id := e.create(meetingBody)["id"].(string)
	locked := e.create(meetingBody)["id"].(string)
	e.lock(locked)
	path := "/v1/dev/user/conversations/"
	e.run(t, []apiCase{
		{Name: "DefaultWithoutTranscript", Method: "GET", Path: path + id, Auth: bearer(e.devRO), WantStatus: 200,
			WantContains: []string{`"id":"` + id + `"`, `"structured":{"title":`, `"folder_id":"`, `"folder_name":"Work"`, `"geolocation":null`},
			WantAbsent:   []string{"transcript_segments", "user_id", "client_session_id"}},
		{Name: "WithTranscript", Method: "GET", Path: path + id + "?include_transcript=true", Auth: bearer(e.devRO), WantStatus: 200,
			WantContains: []string{`"transcript_segments":[{"id":`, `"speaker_name":"Ada Lovelace"`}},
		{Name: "FalseIsFalse", Method: "GET", Path: path + id + "?include_transcript=false", Auth: bearer(e.devRO), WantStatus: 200,
			WantAbsent: []string{"transcript_segments"}},
		{Name: "BadBool", Method: "GET", Path: path + id + "?include_transcript=maybe", Auth: bearer(e.devRO), WantStatus: 422,
			WantContains: []string{`"loc":["query","include_transcript"]`, `"type":"bool_parsing"`}},
		{Name: "Missing", Method: "GET", Path: path + "nope", Auth: bearer(e.devRO), WantStatus: 404,
			WantContains: []string{`"detail":"Conversation not found"`}},
		{Name: "OtherUsers", Method: "GET", Path: path + id, Auth: bearer(e.otherRW), WantStatus: 404,
			WantContains: []string{`"detail":"Conversation not found"`}},
		{Name: "LockedIsHidden", Method: "GET", Path: path + locked, Auth: bearer(e.devRO), WantStatus: 404,
			WantContains: []string{`"detail":"Conversation not found"`}},
	})
}

func TestPatchAndDeleteConversation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id := e.create(meetingBody)["id"].(string)
	locked := e.create(meetingBody)["id"].(string)
	e.lock(locked)
	path := "/v1/dev/user/conversations/"
	auth := bearer(e.devRW)
	e.run(t, []apiCase{
		{Name: "Title", Method: "PATCH", Path: path + id, Auth: auth, Body: `{"title":"  Budget sync with Grace  "}`, WantStatus: 200,
			WantContains: []string{`"title":"Budget sync with Grace"`}, WantAbsent: []string{"transcript_segments"}},
		{Name: "Neither", Method: "PATCH", Path: path + id, Auth: auth, Body: `{}`, WantStatus: 422,
			WantContains: []string{`"msg":"At least one field (title or discarded) must be provided"`}},
		{Name: "NullsAreNeither", Method: "PATCH", Path: path + id, Auth: auth, Body: `{"title":null,"discarded":null}`, WantStatus: 422},
		{Name: "EmptyTitle", Method: "PATCH", Path: path + id, Auth: auth, Body: `{"title":""}`, WantStatus: 422,
			WantContains: []string{`"loc":["body","title"]`, `"type":"string_too_short"`}},
		{Name: "BlankTitle", Method: "PATCH", Path: path + id, Auth: auth, Body: `{"title":"   "}`, WantStatus: 422},
		{Name: "LongTitle", Method: "PATCH", Path: path + id, Auth: auth, Body: `{"title":"` + strings.Repeat("a", 501) + `"}`, WantStatus: 422,
			WantContains: []string{`"type":"string_too_long"`}},
		{Name: "TitleWrongType", Method: "PATCH", Path: path + id, Auth: auth, Body: `{"title":5}`, WantStatus: 422},
		{Name: "DiscardedWrongType", Method: "PATCH", Path: path + id, Auth: auth, Body: `{"discarded":"yes"}`, WantStatus: 422},
		{Name: "Missing", Method: "PATCH", Path: path + "nope", Auth: auth, Body: `{"title":"x"}`, WantStatus: 404,
			WantContains: []string{`"detail":"Conversation not found"`}},
		{Name: "OtherUsers", Method: "PATCH", Path: path + id, Auth: bearer(e.otherRW), Body: `{"title":"x"}`, WantStatus: 404},
		{Name: "Locked", Method: "PATCH", Path: path + locked, Auth: auth, Body: `{"title":"x"}`, WantStatus: 402,
			WantContains: []string{`"detail":"This conversation is locked: its owner has hidden it from assistants`}, WantAbsent: []string{"paid plan"}},
		{Name: "DeleteLocked", Method: "DELETE", Path: path + locked, Auth: auth, WantStatus: 402},
		{Name: "DeleteOtherUsers", Method: "DELETE", Path: path + id, Auth: bearer(e.otherRW), WantStatus: 404},
	})
	t.Run("DiscardAndRestore", func(t *testing.T) {
		listed := func() bool {
			for _, c := range decodeList(t, e.do("GET", "/v1/dev/user/conversations", auth, "")) {
				if c["id"] == id {
					return true
				}
			}
			return false
		}
		if !listed() {
			t.Fatal("not listed before discarding")
		}
		if rec := e.do("PATCH", path+id, auth, `{"discarded":true}`); rec.Code != 200 {
			t.Fatalf("discard: %d %s", rec.Code, rec.Body)
		}
		if listed() {
			t.Fatal("listed after discarding")
		}
		if rec := e.do("PATCH", path+id, auth, `{"discarded":false}`); rec.Code != 200 || !listed() {
			t.Fatalf("restore: %d, listed %v", rec.Code, listed())
		}
	})
	t.Run("Delete", func(t *testing.T) {
		rec := e.do("DELETE", path+id, auth, "")
		if rec.Code != 200 || strings.TrimSpace(rec.Body.String()) != `{"success":true}` {
			t.Fatalf("delete: %d %s", rec.Code, rec.Body)
		}
		if rec := e.do("GET", path+id, auth, ""); rec.Code != 404 {
			t.Fatalf("GET after delete: %d", rec.Code)
		}
		if rec := e.do("DELETE", path+id, auth, ""); rec.Code != 404 {
			t.Fatalf("second delete: %d", rec.Code)
		}
	})
}

func TestListConversations(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	mk := func(day int, text string) string {
		return e.create(fmt.Sprintf(`{"transcript_segments":[%s,%s],"started_at":"2026-01-%02dT12:00:00Z"}`,
			seg(text, 0, 4), seg(text+" Let's decide on it tomorrow.", 4, 8), day))["id"].(string)
	}
	a := mk(1, "The doctor said my blood pressure medication dosage needs adjusting after the checkup.")
	b := mk(2, "We reviewed the quarterly revenue forecast and the sales pipeline with the client team.")
	c := mk(3, "The band rehearsal covered the new guitar riff and the chorus harmony for the concert.")
	ids := func(query string) []string {
		t.Helper()
		rec := e.do("GET", "/v1/dev/user/conversations"+query, bearer(e.devRO), "")
		if rec.Code != 200 {
			t.Fatalf("%s: %d %s", query, rec.Code, rec.Body)
		}
		var out []string
		for _, c := range decodeList(t, rec) {
			out = append(out, c["id"].(string))
			if _, has := c["transcript_segments"]; has != strings.Contains(query, "include_transcript=true") {
				t.Errorf("%s: transcript present=%v", query, has)
			}
		}
		return out
	}
	eq := func(got []string, want ...string) {
		t.Helper()
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("ids = %v, want %v", got, want)
		}
	}
	eq(ids(""), c, b, a)
	eq(ids("?limit=2"), c, b)
	eq(ids("?limit=2&offset=2"), a)
	eq(ids("?limit=0"), c)         // clamped to 1
	eq(ids("?offset=-5"), c, b, a) // clamped to 0
	eq(ids("?include_transcript=true"), c, b, a)
	eq(ids("?start_date=2026-01-02T00:00:00Z"), c, b)
	eq(ids("?end_date=2026-01-02T23:00:00Z"), b, a)
	eq(ids("?start_date=2026-01-02&end_date=2026-01-02T23:59:59Z"), b)
	eq(ids("?categories=health"), a)
	eq(ids("?categories=health,music"), c, a)
	e.run(t, []apiCase{
		{Name: "BadCategory", Method: "GET", Path: "/v1/dev/user/conversations?categories=health,cooking", Auth: bearer(e.devRO),
			WantStatus: 400, WantContains: []string{"Invalid category", "cooking"}},
		{Name: "BadLimit", Method: "GET", Path: "/v1/dev/user/conversations?limit=ten", Auth: bearer(e.devRO),
			WantStatus: 422, WantContains: []string{`"loc":["query","limit"]`, `"type":"int_parsing"`}},
		{Name: "BadDate", Method: "GET", Path: "/v1/dev/user/conversations?start_date=soon", Auth: bearer(e.devRO),
			WantStatus: 422, WantContains: []string{`"loc":["query","start_date"]`}},
		{Name: "OtherUserSeesNone", Method: "GET", Path: "/v1/dev/user/conversations", Auth: bearer(e.otherRW),
			WantStatus: 200, WantContains: []string{`[]`}},
	})
}

func TestEndRecording(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	now := time.Now().UTC()
	conv := &appliance.Conversation{
		ID: "live-1", UserID: e.user, CreatedAt: now, UpdatedAt: now, StartedAt: &now, FinishedAt: &now,
		Source: appliance.SourceOmi, Language: "en", Status: appliance.StatusInProgress, Structured: appliance.EmptyStructured(),
		TranscriptSegments: []appliance.TranscriptSegment{{ID: "s1", Text: "Okay.", Speaker: "SPEAKER_00", Start: 0, End: 1}},
	}
	if err := e.db.SaveConversation(context.Background(), conv); err != nil {
		t.Fatal(err)
	}
	rec := e.do("POST", "/v1/conversations", bearer(e.token), `{}`)
	if rec.Code != 200 {
		t.Fatalf("end recording: %d %s", rec.Code, rec.Body)
	}
	got := decode(t, rec)["conversation"].(map[string]any)
	// Forced processing never discards, even a filler-only transcript.
	if got["id"] != "live-1" || got["status"] != "completed" || got["discarded"] != false {
		t.Fatalf("conversation = %v", got)
	}
	if rec := e.do("POST", "/v1/conversations", bearer(e.token), `{}`); rec.Code != 404 {
		t.Fatalf("second end: %d, want 404 (nothing in progress)", rec.Code)
	}
	if rec := e.do("POST", "/v1/conversations", bearer(e.token), `not json`); rec.Code != 422 {
		t.Fatalf("bad body: %d, want 422", rec.Code)
	}
}

func TestConsoleAndHealth(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.run(t, []apiCase{
		{Name: "Health", Method: "GET", Path: "/healthz", WantStatus: 200, WantContains: []string{`"status":"ok"`}},
		{Name: "Console", Method: "GET", Path: "/console", WantStatus: 200, WantContains: []string{"<title>Hearth</title>"}},
		{Name: "Asset", Method: "GET", Path: "/console/console.css", WantStatus: 200},
		{Name: "NoStatusPage", Method: "GET", Path: "/index.html", WantStatus: 404},
		{Name: "UnknownPath", Method: "GET", Path: "/v9/nothing", WantStatus: 404, WantContains: []string{`"detail":"Not Found"`}},
		{Name: "Traversal", Method: "GET", Path: "/../../etc/passwd", WantStatus: 404},
	})
	// The address a newcomer types opens the console.
	for _, m := range []string{"GET", "HEAD"} {
		if rec := e.do(m, "/", "", ""); rec.Code != 302 || rec.Header().Get("Location") != "/console" {
			t.Errorf("%s /: %d to %q, want 302 to /console", m, rec.Code, rec.Header().Get("Location"))
		}
	}
}

// lock marks one of env.user's conversations locked.
func (e *env) lock(id string) {
	e.t.Helper()
	c, err := e.db.Conversation(context.Background(), e.user, id)
	if err != nil {
		e.t.Fatal(err)
	}
	c.IsLocked = true
	if err := e.db.SaveConversation(context.Background(), c); err != nil {
		e.t.Fatal(err)
	}
}

func TestCreateFromText(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rw := bearer(e.devRW)
	rec := e.do("POST", "/v1/dev/user/conversations", rw, `{"text":"Okay.","text_source":"message","text_source_spec":"whatsapp","started_at":"2026-05-01T10:00:00Z"}`)
	if rec.Code != 200 {
		t.Fatalf("create: %d %s", rec.Code, rec.Body)
	}
	resp := decode(t, rec)
	if resp["discarded"] != false || resp["status"] != "completed" {
		t.Fatalf("a text integration must never be discarded: %v", resp)
	}
	got := decode(t, e.do("GET", "/v1/dev/user/conversations/"+resp["id"].(string)+"?include_transcript=true", rw, ""))
	if got["source"] != "external_integration" || got["finished_at"] != "2026-05-01T10:05:00Z" ||
		got["transcript_segments"].([]any)[0].(map[string]any)["text"] != "Okay." {
		t.Fatalf("stored %v", got)
	}
	e.run(t, []apiCase{
		{Name: "Empty", Method: "POST", Path: "/v1/dev/user/conversations", Auth: rw, Body: `{"text":"   "}`, WantStatus: 422,
			WantContains: []string{"text cannot be empty"}},
		{Name: "Missing", Method: "POST", Path: "/v1/dev/user/conversations", Auth: rw, Body: `{}`, WantStatus: 422,
			WantContains: []string{`"loc":["body","text"]`, "Field required"}},
		{Name: "TooLong", Method: "POST", Path: "/v1/dev/user/conversations", Auth: rw, Body: `{"text":"` + strings.Repeat("a", 100001) + `"}`,
			WantStatus: 422, WantContains: []string{"text cannot exceed 100,000 characters"}},
		{Name: "BadSource", Method: "POST", Path: "/v1/dev/user/conversations", Auth: rw, Body: `{"text":"hi","text_source":"fax"}`, WantStatus: 422},
		{Name: "FinishedBeforeStarted", Method: "POST", Path: "/v1/dev/user/conversations", Auth: rw,
			Body: `{"text":"hi","started_at":"2026-05-01T10:00:00Z","finished_at":"2026-05-01T09:00:00Z"}`, WantStatus: 422,
			WantContains: []string{"finished_at must be after started_at"}},
		{Name: "ReadOnly", Method: "POST", Path: "/v1/dev/user/conversations", Auth: bearer(e.devRO), Body: `{"text":"hi"}`, WantStatus: 403},
	})
}

// TestTimesOutsideTheStorableRange: times that could not be stored and read
// back are refused with 422, and nothing is created.
func TestTimesOutsideTheStorableRange(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	seg := func(end float64) string {
		return fmt.Sprintf(`"transcript_segments":[{"text":"We need to finish the quarterly budget before the board meeting.","start":0,"end":%g}]`, end)
	}
	for _, tc := range []struct{ name, path, body, loc string }{
		{"text, year 9999", "/v1/dev/user/conversations", `{"text":"Budget review notes","started_at":"9999-12-31T23:59:59Z"}`, "started_at"},
		{"text, numeric before year 1", "/v1/dev/user/conversations", `{"text":"Budget review notes","started_at":-62167219201}`, "started_at"},
		{"segments, year 9999", "/v1/dev/user/conversations/from-segments", `{"started_at":"9999-12-31T23:59:50Z",` + seg(30) + `}`, "started_at"},
		{"segments run past the range", "/v1/dev/user/conversations/from-segments", `{"started_at":"2999-12-31T23:59:50Z",` + seg(30) + `}`, "finished_at"},
		{"finished_at year 1850", "/v1/dev/user/conversations/from-segments", `{"finished_at":"1850-01-01T00:00:00Z",` + seg(3) + `}`, "finished_at"},
	} {
		rec := e.do("POST", tc.path, bearer(e.devRW), tc.body)
		if rec.Code != 422 || !strings.Contains(rec.Body.String(), `"`+tc.loc+`"`) {
			t.Errorf("%s: %d %s", tc.name, rec.Code, rec.Body)
		}
	}
	if rec := e.do("GET", "/v1/dev/user/conversations?start_date=9999-12-31", bearer(e.devRW), ""); rec.Code != 422 {
		t.Errorf("query date out of range: %d", rec.Code)
	}
	rec := e.do("GET", "/v1/dev/user/conversations", bearer(e.devRW), "")
	if rec.Code != 200 || strings.TrimSpace(rec.Body.String()) != "[]" {
		t.Fatalf("list after refused creates: %d %s", rec.Code, rec.Body)
	}
}

// TestMalformedChunkedBodyIs400: a body whose chunked encoding is broken is
// a bad request, never a 500.
func TestMalformedChunkedBodyIs400(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	srv := httptest.NewServer(e.srv)
	defer srv.Close()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	req := "POST /v1/dev/user/conversations/from-segments HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + e.devRW +
		"\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n"
	if _, err := conn.Write([]byte(req)); err != nil {
		t.Fatal(err)
	}
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 400 || !strings.Contains(string(body), "Malformed request body") {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
}

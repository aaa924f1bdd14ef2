package appliance_test

import (
	"regexp"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

func TestNewKeySecret(t *testing.T) {
	t.Parallel()
	for _, kind := range []appliance.KeyKind{appliance.KeyKindDev, appliance.KeyKindMCP, appliance.KeyKindSTT} {
		raw, hash, display := appliance.NewKeySecret(kind)
		if !regexp.MustCompile(`^` + kind.Prefix() + `[0-9a-f]{32}$`).MatchString(raw) {
			t.Fatalf("raw key %q has the wrong form", raw)
		}
		if display != raw[:len(kind.Prefix())+4]+"..."+raw[len(raw)-4:] {
			t.Fatalf("display %q of %q", display, raw)
		}
		gotKind, gotHash, ok := appliance.ParseKey(raw)
		if !ok || gotKind != kind || gotHash != hash {
			t.Fatalf("ParseKey(%q) = %v %v %v, want %v %v", raw, gotKind, gotHash, ok, kind, hash)
		}
		if hash == raw || len(hash) != 64 {
			t.Fatalf("hash %q is not a sha256 hex", hash)
		}
	}
	a, _, _ := appliance.NewKeySecret(appliance.KeyKindDev)
	b, _, _ := appliance.NewKeySecret(appliance.KeyKindDev)
	if a == b {
		t.Fatal("two keys are equal")
	}
}

func TestParseKey_Rejects(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{
		"", "omi_dev_0123456789abcdef0123456789abcdef", "hearth_dev_", "hearth_dev_0123",
		"hearth_dev_0123456789abcdef0123456789abcdeg", "hearth_dev_0123456789abcdef0123456789abcdef00",
	} {
		if _, _, ok := appliance.ParseKey(raw); ok {
			t.Errorf("ParseKey(%q) accepted", raw)
		}
	}
}

func TestSpeakerIDFromLabel(t *testing.T) {
	t.Parallel()
	for label, want := range map[string]int{"SPEAKER_00": 0, "SPEAKER_03": 3, "SPEAKER_12": 12, "": 0, "SPEAKER": 0, "SPEAKER_x": 0, "spk_7": 7} {
		if got := appliance.SpeakerIDFromLabel(label); got != want {
			t.Errorf("SpeakerIDFromLabel(%q) = %d, want %d", label, got, want)
		}
	}
}

func TestParseConversationSource_All20(t *testing.T) {
	t.Parallel()
	if len(appliance.ConversationSources) != 20 {
		t.Fatalf("%d sources, want 20", len(appliance.ConversationSources))
	}
	for _, s := range appliance.ConversationSources {
		if got := appliance.ParseConversationSource(string(s)); got != s {
			t.Errorf("ParseConversationSource(%q) = %q", s, got)
		}
	}
	for _, s := range []string{"", "OMI", "iphone", "friend "} {
		if got := appliance.ParseConversationSource(s); got != appliance.SourceUnknown {
			t.Errorf("ParseConversationSource(%q) = %q, want unknown", s, got)
		}
	}
}

func TestNormalizeCategory(t *testing.T) {
	t.Parallel()
	if len(appliance.Categories) != 33 {
		t.Fatalf("%d categories, want 33", len(appliance.Categories))
	}
	for in, want := range map[string]appliance.Category{"romantic": "romantic", "romance": "other", "real": "real", "Business": "other", "": "other"} {
		if got := appliance.NormalizeCategory(in); got != want {
			t.Errorf("NormalizeCategory(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestGeolocationValid(t *testing.T) {
	t.Parallel()
	f := func(v float64) *float64 { return &v }
	for _, tc := range []struct {
		name string
		g    appliance.Geolocation
		want bool
	}{
		{"OK", appliance.Geolocation{Latitude: 52.5, Longitude: 13.4, Accuracy: f(10)}, true},
		{"Edges", appliance.Geolocation{Latitude: -90, Longitude: 180}, true},
		{"LatHigh", appliance.Geolocation{Latitude: 90.01, Longitude: 0}, false},
		{"LonLow", appliance.Geolocation{Latitude: 0, Longitude: -180.5}, false},
		{"NegativeAccuracy", appliance.Geolocation{Accuracy: f(-1)}, false},
		{"ZeroAccuracy", appliance.Geolocation{Accuracy: f(0)}, true},
	} {
		if got := tc.g.Valid(); got != tc.want {
			t.Errorf("%s: Valid() = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestMeetingTreatment(t *testing.T) {
	t.Parallel()
	start := mustTime("2026-01-01T10:00:00Z")
	mk := func(source appliance.ConversationSource, minutes int, segs ...[2]float64) *appliance.Conversation {
		fin := start.Add(time.Duration(minutes) * time.Minute)
		c := &appliance.Conversation{Source: source, StartedAt: &start, FinishedAt: &fin}
		for _, s := range segs {
			c.TranscriptSegments = append(c.TranscriptSegments, appliance.TranscriptSegment{Text: "words", Start: s[0], End: s[1]})
		}
		return c
	}
	speech := [][2]float64{{0, 40}, {30, 70}} // 70 s of speech once overlap is merged
	for _, tc := range []struct {
		name   string
		c      *appliance.Conversation
		role   appliance.ConversationRole
		reason appliance.FinalizationReason
		want   string
	}{
		{"Eligible", mk("desktop", 6, speech...), "meeting", "meeting_ended", "eligible"},
		{"NotDesktop", mk("phone", 6, speech...), "meeting", "", "not_desktop_meeting"},
		{"Ambient", mk("desktop", 6, speech...), "ambient", "", "not_desktop_meeting"},
		{"Rotation", mk("desktop", 6, speech...), "meeting", "max_duration_rotation", "rotation"},
		{"TooShort", mk("desktop", 4, speech...), "meeting", "", "too_short"},
		{"OverlapCountedOnce", mk("desktop", 6, [2]float64{0, 40}, [2]float64{0, 40}), "meeting", "", "insufficient_speech"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ok, why := appliance.MeetingTreatment(tc.c, tc.role, tc.reason)
			if why != tc.want || ok != (tc.want == "eligible") {
				t.Fatalf("MeetingTreatment = %v, %q; want %q", ok, why, tc.want)
			}
		})
	}
}

func mustTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestConfigValidate(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		mut  func(*appliance.Config)
		ok   bool
	}{
		{"Defaults", func(*appliance.Config) {}, true},
		{"LLM", func(c *appliance.Config) { c.LLMBaseURL, c.LLMModel = "http://127.0.0.1:11434/v1", "llama3" }, true},
		{"LLMWithoutModel", func(c *appliance.Config) { c.LLMBaseURL = "http://127.0.0.1:11434/v1" }, false},
		{"LLMNotHTTP", func(c *appliance.Config) { c.LLMBaseURL, c.LLMModel = "ftp://x", "m" }, false},
		{"EmbedDimsOdd", func(c *appliance.Config) { c.EmbedDims = 100 }, false},
		{"EmbedWithoutModel", func(c *appliance.Config) { c.EmbedBaseURL = "http://127.0.0.1:8081/v1" }, false},
		{"BadAddr", func(c *appliance.Config) { c.Addr = "8080" }, false},
		{"NegativeBoost", func(c *appliance.Config) { c.RateLimitBoost = -1 }, false},
		{"TranslateToPortuguese", func(c *appliance.Config) { c.TranslateTo = "pt-BR"; c.TranslationEvent = "translation" }, true},
		{"TranslateToNonsense", func(c *appliance.Config) { c.TranslateTo = "en; rm -rf" }, false},
		{"UnknownTranslationEvent", func(c *appliance.Config) { c.TranslationEvent = "translated" }, false},
		{"FirebaseProject", func(c *appliance.Config) { c.FirebaseProjectID = "omi-on-my-box" }, true},
		{"FirebaseProjectWithSlash", func(c *appliance.Config) { c.FirebaseProjectID = "omi/../x" }, false},
		{"FirebaseCertsNotHTTP", func(c *appliance.Config) {
			c.FirebaseProjectID, c.FirebaseCertsURL = "omi-on-my-box", "file:///etc/passwd"
		}, false},
		{"FirebaseCertsUnusedWhenOff", func(c *appliance.Config) { c.FirebaseCertsURL = "" }, true},
		{"AudioGapTooShort", func(c *appliance.Config) { c.ListenAudioGap = 50 * time.Millisecond }, false},
		{"AudioGapTooLong", func(c *appliance.Config) { c.ListenAudioGap = 2 * time.Minute }, false},
		{"AudioGapSet", func(c *appliance.Config) { c.ListenAudioGap = 3 * time.Second }, true},
		{"GrowAfterSet", func(c *appliance.Config) { c.PocketSphinxGrowAfter = 2 * time.Second }, true},
		{"GrowAfterNegative", func(c *appliance.Config) { c.PocketSphinxGrowAfter = -time.Second }, false},
	} {
		c := appliance.DefaultConfig()
		tc.mut(&c)
		if err := c.Validate(); (err == nil) != tc.ok {
			t.Errorf("%s: Validate() = %v, want ok=%v", tc.name, err, tc.ok)
		}
	}
}

func TestOAuthClients(t *testing.T) {
	t.Parallel()
	cs, err := appliance.ParseOAuthClients(appliance.DefaultOAuthClients)
	if err != nil || len(cs) != 3 {
		t.Fatalf("defaults: %v %v", cs, err)
	}
	byID := map[string]appliance.OAuthClient{}
	for _, c := range cs {
		byID[c.ID] = c
	}
	for _, tc := range []struct {
		client, uri string
		ok          bool
	}{
		{"claude", "https://claude.ai/api/mcp/auth_callback", true},
		{"claude", "https://claude.ai/api/mcp/auth_callback/evil", false},
		{"claude", "https://evil.example/api/mcp/auth_callback", false},
		{"hearth-local", "http://127.0.0.1:53682/callback", true},
		{"hearth-local", "http://localhost:3000/oauth/callback", true},
		{"hearth-local", "http://127.0.0.1.evil.example:80/", false},
		{"hearth-local", "https://127.0.0.1:8443/cb", false},
		{"hearth-local", "http://127.0.0.1:1/cb#frag", false},
		{"hearth-local", "http://127.0.0.1:65535/cb", true},
		{"hearth-local", "http://127.0.0.1:99999/cb", false},
		{"hearth-local", "http://127.0.0.1:0/cb", false},
		{"hearth-local", "http://127.0.0.1:080/cb", false},
		{"hearth-local", "http://[::1]:70000/cb", false},
	} {
		if got := byID[tc.client].AllowsRedirect(tc.uri); got != tc.ok {
			t.Errorf("%s %s: %v, want %v", tc.client, tc.uri, got, tc.ok)
		}
	}
	for _, bad := range []string{"x", "x=", "=https://a/b", "a=https://a/b,a=https://a/c", "a=/relative"} {
		if _, err := appliance.ParseOAuthClients(bad); err == nil {
			t.Errorf("ParseOAuthClients(%q) accepted", bad)
		}
	}
}

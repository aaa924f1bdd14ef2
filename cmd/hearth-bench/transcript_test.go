package main

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestGenTranscriptValid(t *testing.T) {
	texts := map[string]bool{}
	for seed := range uint64(200) {
		r := rand.New(rand.NewPCG(seed, 42))
		for _, n := range []int{1, 2, 12, 500} {
			segs := genTranscript(r, n)
			if len(segs) != n {
				t.Fatalf("seed %d: %d segments, want %d", seed, len(segs), n)
			}
			speakers := map[string]bool{}
			prevEnd := -1.0
			for i, s := range segs {
				texts[s.Text] = true
				if strings.TrimSpace(s.Text) == "" {
					t.Fatalf("seed %d seg %d: empty text", seed, i)
				}
				if strings.ContainsAny(s.Text, "{}") {
					t.Fatalf("seed %d seg %d: unexpanded placeholder in %q", seed, i, s.Text)
				}
				if s.Start < 0 || !(s.End > s.Start) {
					t.Fatalf("seed %d seg %d: start %v end %v", seed, i, s.Start, s.End)
				}
				if s.Start < prevEnd {
					t.Fatalf("seed %d seg %d: start %v before previous end %v", seed, i, s.Start, prevEnd)
				}
				if i > 0 && !(s.Start > segs[i-1].Start) {
					t.Fatalf("seed %d seg %d: start not increasing", seed, i)
				}
				prevEnd = s.End
				switch s.Speaker {
				case "SPEAKER_00":
					if !s.IsUser {
						t.Fatalf("seed %d seg %d: SPEAKER_00 must be the user", seed, i)
					}
				case "SPEAKER_01":
					if s.IsUser {
						t.Fatalf("seed %d seg %d: SPEAKER_01 must not be the user", seed, i)
					}
				default:
					t.Fatalf("seed %d seg %d: speaker %q", seed, i, s.Speaker)
				}
				speakers[s.Speaker] = true
			}
			if n >= 12 && len(speakers) != 2 {
				t.Errorf("seed %d n %d: speakers %v, want both", seed, n, speakers)
			}
		}
	}
	if len(texts) < 200 {
		t.Errorf("only %d distinct sentences generated; transcripts are not varied", len(texts))
	}
}

func TestGenTranscriptJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	b, err := json.Marshal(createRequest{TranscriptSegments: genTranscript(r, 3)})
	if err != nil {
		t.Fatal(err)
	}
	var back struct {
		TranscriptSegments []map[string]any `json:"transcript_segments"`
	}
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if len(back.TranscriptSegments) != 3 {
		t.Fatalf("round trip: %s", b)
	}
	for _, k := range []string{"text", "speaker", "is_user", "start", "end"} {
		if _, ok := back.TranscriptSegments[0][k]; !ok {
			t.Errorf("segment JSON lacks %q: %s", k, b)
		}
	}
}

func TestExpand(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	got := expand(r, "{name} and {name2} at {time}, {unknown} {")
	if strings.Contains(got, "{name") || strings.Contains(got, "{time}") {
		t.Errorf("expand left placeholders: %q", got)
	}
	if !strings.Contains(got, "{unknown}") || !strings.HasSuffix(got, "{") {
		t.Errorf("expand should keep unknown placeholders and a lone brace: %q", got)
	}
	// Every template expands fully.
	all := append([]string{}, smallTalk...)
	for _, tp := range topics {
		all = append(all, tp...)
	}
	if len(all) < 30 {
		t.Errorf("only %d templates", len(all))
	}
	for _, tmpl := range all {
		if out := expand(r, tmpl); strings.ContainsAny(out, "{}") {
			t.Errorf("template %q expands to %q", tmpl, out)
		}
	}
}

package localstt

import "testing"

func TestOtherLanguageIsReportedOnlyWhenTheModelIsSure(t *testing.T) {
	codes := []string{"en", "fr", "it"}
	name := func(id int) string { return codes[id] }
	for _, tc := range []struct {
		name  string
		probs []float32
		want  string
	}{
		{"the session's language", []float32{0.9, 0.05, 0.05}, ""},
		{"sure it is French", []float32{0.02, 0.95, 0.03}, "fr"},
		{"French, but not sure", []float32{0.25, 0.7, 0.05}, ""},
		{"sure of French, yet English likely too", []float32{0.1, 0.85, 0.05}, ""},
		{"nothing to go on", nil, ""},
	} {
		if got := otherLanguage(tc.probs, "en", name); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
